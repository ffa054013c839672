/**
 * The extension port: the hook names and middleware kinds of PLUGINS.md, and the one interface the
 * loop calls at the documented points. agent-core knows nothing of plugins; plugin-host implements
 * this port. The default does nothing and costs nothing.
 */

export const OBSERVER_SCHEMA_VERSION = 'hermes.observer.v1';
export const MIDDLEWARE_SCHEMA_VERSION = 'hermes.middleware.v1';

export const HOOK_NAMES = [
  'pre_tool_call',
  'post_tool_call',
  'transform_tool_result',
  'pre_llm_call',
  'post_llm_call',
  'pre_api_request',
  'post_api_request',
  'api_request_error',
  'on_session_start',
  'on_session_end',
  'on_session_finalize',
  'on_session_reset',
] as const;
export type HookName = (typeof HOOK_NAMES)[number];

export const MIDDLEWARE_KINDS = ['llm_request', 'tool_request', 'llm_execution', 'tool_execution'] as const;
export type MiddlewareKind = (typeof MIDDLEWARE_KINDS)[number];
export type RequestMiddlewareKind = 'llm_request' | 'tool_request';
export type ExecutionMiddlewareKind = 'llm_execution' | 'tool_execution';

/** One accepted replacement by request middleware; later hooks receive the list. */
export interface TraceEntry {
  source: string;
  reason?: string;
}

/** What a call is about: `session_id, task_id, turn_id, api_request_id, provider, model, tool_name, tool_call_id` as they apply. */
export type RunContext = Record<string, unknown>;

/**
 * `signal` is the turn's: once it fires, plugin code is no longer waited for (a callback that never
 * settles cannot keep an interrupted turn running); the middleware methods then throw its reason.
 */
export interface ExtensionPort {
  /** Runs a hook's callbacks (isolated); resolves their non-null results in registration order. */
  invokeHook(name: HookName, payload: Record<string, unknown>, signal?: AbortSignal): Promise<unknown[]>;
  /**
   * `llm_request` (payload: the provider request) or `tool_request` (payload: the tool's args):
   * resolves the payload after whole replacements, and the trace of who replaced it.
   */
  applyRequestMiddleware<T>(kind: RequestMiddlewareKind, payload: T, context: RunContext, signal?: AbortSignal): Promise<{ payload: T; trace: TraceEntry[] }>;
  /**
   * `llm_execution` (R: the provider response) or `tool_execution` (R: the tool result string the
   * model sees): runs `terminal` (the real call) inside the chain and resolves what the chain returns.
   */
  runExecutionMiddleware<T, R>(
    kind: ExecutionMiddlewareKind,
    payload: T,
    context: RunContext,
    terminal: (payload: T) => Promise<R>,
    signal?: AbortSignal,
  ): Promise<R>;
}

/** No plugins: hooks return nothing, middleware passes through. */
export const NO_EXTENSIONS: ExtensionPort = {
  invokeHook: async () => [],
  applyRequestMiddleware: async (_kind, payload) => ({ payload, trace: [] }),
  runExecutionMiddleware: (_kind, payload, _context, terminal) => terminal(payload),
};

/** `pre_tool_call` results: the first valid `{action: "block", message}` wins. */
export function firstBlock(results: unknown[]): string | null {
  for (const r of results) {
    if (r && typeof r === 'object' && (r as { action?: unknown }).action === 'block') {
      const message = (r as { message?: unknown }).message;
      if (typeof message === 'string' && message.trim()) return message;
    }
  }
  return null;
}

/** `pre_llm_call` results: strings or `{context}`, joined; empty ones ignored. */
export function collectContext(results: unknown[]): string {
  const parts: string[] = [];
  for (const r of results) {
    const text = typeof r === 'string' ? r : r && typeof r === 'object' ? (r as { context?: unknown }).context : undefined;
    if (typeof text === 'string' && text.trim()) parts.push(text.trim());
  }
  return parts.join('\n\n');
}

/** `transform_tool_result` results: the first string replaces the result. */
export function firstString(results: unknown[]): string | null {
  for (const r of results) if (typeof r === 'string') return r;
  return null;
}
