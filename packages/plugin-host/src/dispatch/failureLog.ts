import type { Logger } from '@hermes/agent-core';

/**
 * Warns once per distinct failure of a callback (same callback, same place, same message), then
 * logs repeats at debug level, so a plugin that fails on every call does not flood the log.
 */
export class FailureLog {
  private seen = new WeakMap<object, Set<string>>();

  /** `onFirst`: told each distinct failure once (without the stack), e.g. to show it to the user. */
  constructor(
    private readonly logger: Logger,
    private readonly onFirst?: (message: string) => void,
  ) {}

  /** `error`: its stack goes into the warning (once), so the log shows where the plugin failed. */
  report(callback: object, where: string, message: string, error?: unknown): void {
    const key = `${where}\u0000${message}`;
    const seen = this.seen.get(callback) ?? new Set<string>();
    this.seen.set(callback, seen);
    if (seen.has(key)) {
      this.logger.debug(message);
      return;
    }
    seen.add(key);
    let stack = '';
    try {
      stack = error instanceof Error && error.stack ? `\n${error.stack}` : '';
    } catch {
      // an unreadable thrown value has no stack to show
    }
    this.logger.warn(`${message}${stack}`);
    try {
      this.onFirst?.(message);
    } catch (notifyError) {
      this.logger.error(`could not pass on a plugin failure: ${errorText(notifyError)}`);
    }
  }

  reset(): void {
    this.seen = new WeakMap();
  }
}

export function errorText(error: unknown): string {
  // What a plugin throws may be anything, even a Proxy whose every trap throws.
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return 'a thrown value that cannot be read';
  }
}
