import type { HermesRuntime, StoredMessage } from '@hermes/agent-core';
import type { ConfigProblemInfo, SessionInfo, TranscriptMessage } from '../protocol/index.ts';
import type { LiveSession } from '../server/liveSessions.ts';
import type { HandlerContext } from './context.ts';

export function sessionInfo(ctx: HandlerContext, session: LiveSession): SessionInfo {
  const { runtime } = ctx;
  const { agent } = session;
  const stored = runtime.store.getSession(agent.id);
  const problem = setupProblem(ctx, session);
  const configProblems = configProblemInfos(ctx.runtime);
  return {
    model: agent.modelName || '(none)',
    provider: agent.providerId || '(none)',
    ...(ctx.demo ? { demo: true } : {}),
    ...(problem ? { setup_hint: problem } : {}),
    ...(configProblems.length ? { config_problems: configProblems } : {}),
    ...(agent.baseUrl ? { base_url: agent.baseUrl } : {}),
    cwd: session.agent.cwd,
    title: stored?.title ?? null,
    stored_session_id: session.agent.id,
    toolsets: runtime.tools.byToolset(),
    approval_mode: ctx.runtime.loaded.config.approvals.mode,
    yolo: agent.yolo,
    plugin_count: 0,
    usage: { ...session.agent.usage },
    version: ctx.version,
  };
}

/**
 * What to do so that the session can answer, when it cannot: the missing model, with the config
 * mistakes that may be why; null when a model is there (config mistakes then go in config_problems).
 */
export function setupProblem(ctx: HandlerContext, session: LiveSession): string | null {
  const unavailable = session.agent.unavailable;
  return unavailable ? [...ctx.runtime.configProblems, unavailable].join('\n') : null;
}

/** The runtime's config problems for the wire, each with its kind (toolset mistakes are `value`s). */
export function configProblemInfos(runtime: HermesRuntime): ConfigProblemInfo[] {
  return runtime.configProblems.map((text, i) => ({ kind: runtime.loaded.problems[i]?.kind ?? 'value', text }));
}

export function toTranscript(messages: StoredMessage[]): TranscriptMessage[] {
  return messages.map((m) => ({
    role: m.role,
    text: m.content ?? '',
    timestamp: m.timestamp,
    row_id: m.id,
    ...(m.toolName ? { name: m.toolName } : {}),
    ...(m.toolCallId ? { tool_call_id: m.toolCallId } : {}),
    ...(m.toolCalls?.length
      ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })) }
      : {}),
    ...(m.reasoning ? { reasoning: m.reasoning } : {}),
    // A row still `streaming` belongs to a run that died mid-reply.
    ...(m.status && m.status !== 'complete' ? { status: m.status === 'streaming' ? ('interrupted' as const) : m.status } : {}),
  }));
}
