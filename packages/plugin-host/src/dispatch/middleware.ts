import { MIDDLEWARE_SCHEMA_VERSION, OBSERVER_SCHEMA_VERSION, type RunContext, type TraceEntry } from '@hermes/agent-core';
import type { HookEntry } from '../context/registrations.ts';
import { errorText, type FailureLog } from './failureLog.ts';
import { executionResult, isPlainObject, replacementProblem } from './executionResult.ts';
import { detach, snapshot } from './snapshot.ts';
import { abandonCalls, inPlugin, outsidePlugins } from '../containment/pluginScope.ts';
import { ABORTED, abortError, untilAborted } from './untilAborted.ts';

const VERSIONS = { telemetry_schema_version: OBSERVER_SCHEMA_VERSION, middleware_schema_version: MIDDLEWARE_SCHEMA_VERSION };

/** Payload field names per kind: `request`/`original_request` or `args`/`original_args`. */
function keys(kind: string): { field: string; original: string } {
  return kind.startsWith('llm_') ? { field: 'request', original: 'original_request' } : { field: 'args', original: 'original_args' };
}

/**
 * `llm_request` / `tool_request`: each callback sees the current payload and the original, and may
 * return a whole replacement (`{request}` or `{args}`, with `source` and `reason`). Each accepted one
 * is appended to the trace. Callbacks that throw are skipped. When `signal` fires while a callback
 * runs, the chain stops waiting and throws the signal's reason (the turn is being interrupted).
 */
export async function applyRequestChain<T>(
  kind: string,
  entries: readonly HookEntry[],
  payload: T,
  context: RunContext,
  failures: FailureLog,
  signal?: AbortSignal,
): Promise<{ payload: T; trace: TraceEntry[] }> {
  if (entries.length === 0) return { payload, trace: [] };
  const { field, original } = keys(kind);
  const originalCopy = snapshot(payload);
  let current: T = payload;
  const trace: TraceEntry[] = [];
  for (const entry of [...entries]) {
    const call = { ...context, ...VERSIONS, [field]: snapshot(current), [original]: originalCopy };
    let result: unknown;
    try {
      result = await untilAborted(Promise.resolve().then(() => inPlugin(entry.plugin, `${kind} middleware`, () => entry.callback(call))), signal);
      if (result !== ABORTED) result = detach(result);
    } catch (error) {
      const fields = Object.keys(call).join(', ');
      failures.report(entry.callback, kind, `plugin ${entry.plugin}: ${kind} middleware raised ${errorText(error)}; skipped (it receives: ${fields})`, error);
      continue;
    }
    if (result === ABORTED) {
      abandonCalls(entry.plugin, `${kind} middleware`);
      throw abortError(signal!);
    }
    if (result === null || result === undefined) continue;
    if (!isPlainObject(result) || !isPlainObject(result[field])) {
      failures.report(entry.callback, `${kind}:shape`, `plugin ${entry.plugin}: ${kind} middleware returned no {${field}: {...}} replacement; ignored`);
      continue;
    }
    const problem = replacementProblem(kind, result[field]);
    if (problem) {
      failures.report(entry.callback, `${kind}:shape`, `plugin ${entry.plugin}: ${kind} middleware returned a replacement that cannot be used (${problem}); ignored`);
      continue;
    }
    current = result[field] as T;
    const source = typeof result.source === 'string' && result.source.trim() ? result.source : entry.plugin;
    trace.push(typeof result.reason === 'string' && result.reason ? { source, reason: result.reason } : { source });
  }
  return { payload: current, trace };
}

/**
 * `llm_execution` / `tool_execution`, the seed's contract: the first registered is outermost;
 * `next_call(payload?)` runs the rest of the chain once and resolves to what it produced (the tool
 * result string, or the provider response); a second call returns the first call's result. The
 * callback returns the result: see `executionResult` for the shapes tolerated (`undefined` keeps the
 * downstream result). Fail-open: a callback that throws before `next_call` is skipped; one that throws
 * after a successful `next_call` yields the downstream result. A failure of the real call stays a
 * failure. Callbacks see copies of the payload: only what they pass to `next_call` changes the call.
 * When `signal` fires while a callback runs, the chain stops waiting for it and throws the signal's
 * reason: a callback that never settles cannot keep an interrupted turn running.
 */
export function runExecutionChain<T, R>(
  kind: string,
  entries: readonly HookEntry[],
  payload: T,
  context: RunContext,
  terminal: (payload: T) => Promise<R>,
  failures: FailureLog,
  signal?: AbortSignal,
): Promise<R> {
  const chain = [...entries];
  if (chain.length === 0) return terminal(payload);
  const { field, original } = keys(kind);
  const step = async (index: number, current: T): Promise<R> => {
    if (index >= chain.length) return terminal(current);
    const entry = chain[index];
    let downstream: Promise<R> | null = null;
    const next_call = (next?: T): Promise<R> => {
      if (downstream) {
        failures.report(entry.callback, `${kind}:twice`, `plugin ${entry.plugin}: ${kind} middleware called next_call() twice; the first result is reused`);
        return downstream;
      }
      const problem = next === undefined ? null : replacementProblem(kind, next);
      if (problem) failures.report(entry.callback, `${kind}:next`, `plugin ${entry.plugin}: ${kind} middleware passed next_call() a payload that cannot be used (${problem}); the current one is used`);
      // The rest of the chain and the real call are not this plugin's code.
      downstream = outsidePlugins(() => step(index + 1, next === undefined || problem ? current : next));
      downstream.catch(() => {}); // observed below or by the callback; never an unhandled rejection
      return downstream;
    };
    const call = { ...context, ...VERSIONS, [field]: snapshot(current), [original]: snapshot(payload), next_call };
    let returned: unknown;
    try {
      returned = await untilAborted(Promise.resolve().then(() => inPlugin(entry.plugin, `${kind} middleware`, () => entry.callback(call))), signal);
    } catch (error) {
      const fields = Object.keys(call).join(', ');
      const started: Promise<R> | null = downstream;
      if (!started) {
        failures.report(entry.callback, `${kind}:before`, `plugin ${entry.plugin}: ${kind} middleware raised ${errorText(error)} before next_call; skipped (it receives: ${fields})`, error);
        return step(index + 1, current);
      }
      let result: R;
      try {
        result = await started;
      } catch {
        throw error; // the real call failed: no success is invented, the callback's error (or the one it passed on) stands
      }
      failures.report(entry.callback, `${kind}:after`, `plugin ${entry.plugin}: ${kind} middleware raised ${errorText(error)} after next_call; its result is kept (it receives: ${fields})`, error);
      return result;
    }
    if (returned === ABORTED) {
      abandonCalls(entry.plugin, `${kind} middleware`);
      throw abortError(signal!);
    }
    // Nothing returned: the downstream result stands (the rest of the chain runs if it has not yet).
    const settled = downstream as Promise<R> | null;
    try {
      returned = detach(returned);
    } catch (error) {
      failures.report(entry.callback, `${kind}:shape`, `plugin ${entry.plugin}: ${kind} middleware ${errorText(error)}; the downstream result is kept`);
      returned = undefined;
    }
    if (returned === undefined || returned === null) return settled ?? next_call();
    const base = settled ? await settled.then((r: R) => r, () => undefined) : undefined;
    const { value, note } = executionResult(kind, returned, base);
    if (note) failures.report(entry.callback, `${kind}:shape`, `plugin ${entry.plugin}: ${kind} middleware returned ${note}`);
    return value as R;
  };
  return step(0, payload);
}
