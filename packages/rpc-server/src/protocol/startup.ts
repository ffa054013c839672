/**
 * How the backend reports that it cannot start: before `gateway.ready` there is no wire, so it writes
 * one line to stderr starting with this prefix, followed by a message naming the file, what is wrong
 * and the fix (never a stack trace), then exits with code 1. Clients show that message as the error.
 */
export const STARTUP_ERROR_PREFIX = 'hermes-rpc: cannot start: ';

/** The backend's startup error in `stderrLines` (the message after the prefix), if it wrote one. */
export function findStartupError(stderrLines: readonly string[]): string | undefined {
  const line = [...stderrLines].reverse().find((l) => l.startsWith(STARTUP_ERROR_PREFIX));
  return line?.slice(STARTUP_ERROR_PREFIX.length).trim();
}

const FIX_MARK = ' Fix: ';

/** A message that ends with its fix (`… Fix: …`, as startup and store errors do) split into what is wrong and the fix. */
export function splitFix(message: string): { detail: string; fix?: string } {
  const at = message.indexOf(FIX_MARK);
  return at >= 0 ? { detail: message.slice(0, at), fix: message.slice(at + FIX_MARK.length) } : { detail: message };
}
