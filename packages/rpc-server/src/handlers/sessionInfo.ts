import type { StoredMessage } from '@hermes/agent-core';
import type { SessionInfo, TranscriptMessage } from '../protocol/index.ts';
import { toWireUsage } from '../bridge/eventBridge.ts';
import type { LiveSession } from '../server/liveSessions.ts';
import type { HandlerContext } from './context.ts';

export function sessionInfo(ctx: HandlerContext, session: LiveSession): SessionInfo {
  const { runtime } = ctx;
  const { agent } = session;
  const stored = runtime.store.getSession(agent.id);
  const problem = setupProblem(ctx, session);
  return {
    model: agent.modelName || '(none)',
    provider: agent.providerId || '(none)',
    ...(ctx.demo ? { demo: true } : {}),
    ...(problem ? { setup_hint: problem } : {}),
    ...(agent.baseUrl ? { base_url: agent.baseUrl } : {}),
    cwd: session.agent.cwd,
    title: stored?.title ?? null,
    stored_session_id: session.agent.id,
    toolsets: runtime.tools.byToolset(),
    approval_mode: ctx.runtime.loaded.config.approvals.mode,
    yolo: agent.yolo,
    plugin_count: 0,
    usage: toWireUsage(session.agent.usage),
    version: ctx.version,
  };
}

/** Config mistakes and a missing model, in words the user can act on; null when all is well. */
export function setupProblem(ctx: HandlerContext, session: LiveSession): string | null {
  const parts = [...ctx.runtime.configProblems];
  const unavailable = session.agent.unavailable;
  if (unavailable) parts.push(unavailable);
  return parts.length ? parts.join('\n') : null;
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
