import { OBSERVER_SCHEMA_VERSION } from '@hermes/agent-core';
import type { HookEntry } from '../context/registrations.ts';
import { errorText, type FailureLog } from './failureLog.ts';
import { detach, snapshot } from './snapshot.ts';
import { abandonCalls, inPlugin } from '../containment/pluginScope.ts';
import { ABORTED, untilAborted } from './untilAborted.ts';

const TIMED_OUT = Symbol('timed out');

/** Resolves the callback's value, TIMED_OUT after `timeoutMs` (≤ 0: no limit), or ABORTED when the turn is interrupted. */
async function withTimeout(run: () => unknown, timeoutMs: number, signal: AbortSignal | undefined): Promise<unknown> {
  const pending = untilAborted(Promise.resolve().then(run), signal);
  if (!(timeoutMs > 0)) return pending;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
    timer.unref();
  });
  // A late rejection of an abandoned callback must not become an unhandled rejection.
  pending.catch(() => {});
  try {
    return await Promise.race([pending, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs one hook's callbacks in registration order, each isolated: an exception or a timeout is a
 * warning naming plugin and hook, and for `pre_tool_call` a block (it fails closed). Non-null
 * results are returned in order. Once `signal` (the turn's) fires, no callback is waited for: the
 * turn is being interrupted, and a callback that never settles must not keep it running.
 */
export async function runHook(
  name: string,
  entries: readonly HookEntry[],
  payload: Record<string, unknown>,
  timeoutMs: number,
  failures: FailureLog,
  signal?: AbortSignal,
): Promise<unknown[]> {
  const full = { ...payload, telemetry_schema_version: OBSERVER_SCHEMA_VERSION };
  const fields = Object.keys(full).join(', ');
  const results: unknown[] = [];
  for (const entry of [...entries]) {
    let problem: string | null = null;
    let failure: unknown;
    try {
      // Each callback gets its own copy: a hook that mutates `args` or `messages` changes nothing.
      const value = await withTimeout(() => inPlugin(entry.plugin, `${name} hook`, () => entry.callback(snapshot(full))), timeoutMs, signal);
      if (value === ABORTED) {
        abandonCalls(entry.plugin, `${name} hook`);
        if (name === 'pre_tool_call') results.push({ action: 'block', message: 'Not run: the turn was interrupted' });
        continue;
      }
      if (value === TIMED_OUT) {
        problem = `timed out after ${timeoutMs / 1000} s`;
        abandonCalls(entry.plugin, `${name} hook`);
      }
      else if (value !== null && value !== undefined) results.push(detach(value));
    } catch (error) {
      problem = `raised ${errorText(error)}`;
      failure = error;
    }
    if (problem === null) continue;
    failures.report(entry.callback, `hook:${name}`, `plugin ${entry.plugin}: ${name} hook callback ${problem} (it receives: ${fields})`, failure);
    if (name === 'pre_tool_call') {
      results.push({ action: 'block', message: `Blocked: the pre_tool_call check of plugin ${entry.plugin} ${problem}` });
    }
  }
  return results;
}
