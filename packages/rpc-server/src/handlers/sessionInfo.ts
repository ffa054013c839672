import type { HermesRuntime, StoredMessage } from '@hermes/agent-core';
import type { ConfigProblemInfo, TranscriptMessage } from '../protocol/index.ts';

/* session.info itself is built by agent-core's SessionService (info()), after every change it makes. */

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
