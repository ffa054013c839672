import { MIDDLEWARE_SCHEMA_VERSION, OBSERVER_SCHEMA_VERSION, type RunContext, type TraceEntry } from '@hermes/agent-core';
import type { HookEntry } from '../context/registrations.ts';
import { errorText, type FailureLog } from './failureLog.ts';

const VERSIONS = { telemetry_schema_version: OBSERVER_SCHEMA_VERSION, middleware_schema_version: MIDDLEWARE_SCHEMA_VERSION };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A private copy for callbacks to look at; values that cannot be cloned are shared (shallow copy). */
function snapshot<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    return isPlainObject(value) ? ({ ...value } as T) : value;
  }
}

/** Payload field names per kind: `request`/`original_request` or `args`/`original_args`. */
function keys(kind: string): { field: string; original: string } {
  return kind.startsWith('llm_') ? { field: 'request', original: 'original_request' } : { field: 'args', original: 'original_args' };
}

/**
 * `llm_request` / `tool_request`: each callback sees the current payload and the original, and may
 * return a whole replacement (`{request}` or `{args}`, with `source` and `reason`). Each accepted one
 * is appended to the trace. Callbacks that throw are skipped.
 */
export async function applyRequestChain<T>(
  kind: string,
  entries: readonly HookEntry[],
  payload: T,
  context: RunContext,
  failures: FailureLog,
): Promise<{ payload: T; trace: TraceEntry[] }> {
  if (entries.length === 0) return { payload, trace: [] };
  const { field, original } = keys(kind);
  const originalCopy = snapshot(payload);
  let current: T = payload;
  const trace: TraceEntry[] = [];
  for (const entry of [...entries]) {
    const call = { ...context, ...VERSIONS, [field]: snapshot(current), [original]: originalCopy };
    try {
      const result = await entry.callback(call);
      if (result === null || result === undefined) continue;
      if (!isPlainObject(result) || !isPlainObject(result[field])) {
        failures.report(entry.callback, `${kind}:shape`, `plugin ${entry.plugin}: ${kind} middleware returned no {${field}: {...}} replacement; ignored`);
        continue;
      }
      current = result[field] as T;
      const source = typeof result.source === 'string' && result.source.trim() ? result.source : entry.plugin;
      trace.push(typeof result.reason === 'string' && result.reason ? { source, reason: result.reason } : { source });
    } catch (error) {
      const fields = Object.keys(call).join(', ');
      failures.report(entry.callback, kind, `plugin ${entry.plugin}: ${kind} middleware raised ${errorText(error)}; skipped (it receives: ${fields})`);
    }
  }
  return { payload: current, trace };
}

/**
 * `llm_execution` / `tool_execution`: the first registered is outermost. `next_call(payload?)` runs
 * the rest of the chain once; a second call returns the first call's result. Fail-open: a callback
 * that throws before `next_call` is skipped; one that throws after a successful `next_call` yields
 * the downstream result. A failure of the real call stays a failure.
 */
export function runExecutionChain<T, R>(
  kind: string,
  entries: readonly HookEntry[],
  payload: T,
  context: RunContext,
  terminal: (payload: T) => Promise<R>,
  failures: FailureLog,
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
      downstream = step(index + 1, next === undefined ? current : next);
      downstream.catch(() => {}); // observed below or by the callback; never an unhandled rejection
      return downstream;
    };
    const call = { ...context, ...VERSIONS, [field]: current, [original]: payload, next_call };
    try {
      return (await entry.callback(call)) as R;
    } catch (error) {
      const fields = Object.keys(call).join(', ');
      const started: Promise<R> | null = downstream;
      if (!started) {
        failures.report(entry.callback, `${kind}:before`, `plugin ${entry.plugin}: ${kind} middleware raised ${errorText(error)} before next_call; skipped (it receives: ${fields})`);
        return step(index + 1, current);
      }
      let result: R;
      try {
        result = await started;
      } catch {
        throw error; // the real call failed: no success is invented, the callback's error (or the one it passed on) stands
      }
      failures.report(entry.callback, `${kind}:after`, `plugin ${entry.plugin}: ${kind} middleware raised ${errorText(error)} after next_call; its result is kept (it receives: ${fields})`);
      return result;
    }
  };
  return step(0, payload);
}
