import type { ApprovalGate } from '../approvals/approvalGate.ts';
import type { AskApproval } from '../approvals/types.ts';
import type { ChatMessage, ToolCall, ToolSchema } from '../providers/types.ts';
import type { SessionStore } from '../sessions/sessionStore.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { ToolContext } from '../tools/types.ts';
import type { AgentEventSink } from './events.ts';

export const INTERRUPTED_TOOL_RESULT = '[interrupted] The user interrupted the turn before this tool call finished.';

export interface ToolCallDeps {
  sessionId: string;
  tools: ToolRegistry;
  /** The schemas offered to the model (the session's enabled toolsets). */
  toolSchemas: ToolSchema[];
  /** Calls are judged against the toolsets offered, so the model cannot reach a tool it was not given. */
  toolsets: string[] | undefined;
  store: SessionStore;
  emit: AgentEventSink;
  /** Everything a tool sees but the per-call signal and progress callback. */
  context: Omit<ToolContext, 'signal' | 'progress'>;
  gate: ApprovalGate | null;
  ask: AskApproval;
  yolo: () => boolean;
}

interface CallResult {
  result: string;
  error?: string;
  blocked?: boolean;
  inlineDiff?: string;
  interrupted?: boolean;
}

/**
 * Runs one model response's tool calls. Consecutive read-only calls run in parallel; everything else
 * runs alone, in order. Results are stored and added to the history in call order, and every call
 * gets a result message (interrupted ones too), so the history stays valid for the next request.
 * Returns true if the user interrupted.
 */
export async function runToolCalls(deps: ToolCallDeps, calls: ToolCall[], history: ChatMessage[], signal: AbortSignal): Promise<boolean> {
  let interrupted = false;
  let index = 0;
  while (index < calls.length) {
    const batch = [calls[index]!];
    const readOnly = (call: ToolCall) => deps.tools.get(call.function.name)?.readOnly === true;
    if (readOnly(batch[0]!)) while (index + batch.length < calls.length && readOnly(calls[index + batch.length]!)) batch.push(calls[index + batch.length]!);
    index += batch.length;
    const results = interrupted || signal.aborted
      ? batch.map((): CallResult => ({ result: INTERRUPTED_TOOL_RESULT, interrupted: true }))
      : await Promise.all(batch.map((call) => runOne(deps, call, signal)));
    batch.forEach((call, i) => {
      const outcome = results[i]!;
      if (outcome.interrupted) interrupted = true;
      deps.store.appendMessage(deps.sessionId, {
        role: 'tool',
        content: outcome.result,
        toolName: call.function.name,
        toolCallId: call.id,
      });
      history.push({ role: 'tool', tool_call_id: call.id, content: outcome.result });
    });
  }
  return interrupted;
}

async function runOne(deps: ToolCallDeps, call: ToolCall, signal: AbortSignal): Promise<CallResult> {
  const { emit, tools } = deps;
  const name = call.function.name;
  const started = performance.now();
  emit({ type: 'tool.start', toolId: call.id, name, context: tools.preview(name, call.function.arguments) });
  const context: ToolContext = {
    ...deps.context,
    signal,
    progress: (preview) => emit({ type: 'tool.progress', toolId: call.id, name, preview }),
  };
  let outcome: CallResult;
  try {
    outcome = await judgeAndRun(deps, call, context);
  } catch {
    // Only an abort escapes the registry: the user interrupted while this tool ran.
    outcome = { result: INTERRUPTED_TOOL_RESULT, error: 'interrupted', interrupted: true };
  }
  emit({
    type: 'tool.complete',
    toolId: call.id,
    name,
    durationS: Math.round(performance.now() - started) / 1000,
    result: outcome.result,
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(outcome.blocked ? { blocked: true } : {}),
    ...(outcome.inlineDiff ? { inlineDiff: outcome.inlineDiff } : {}),
  });
  return outcome;
}

async function judgeAndRun(deps: ToolCallDeps, call: ToolCall, context: ToolContext): Promise<CallResult> {
  const prepared = deps.tools.prepare(call.function.name, call.function.arguments, deps.toolsets);
  if (!prepared.ok) return prepared.outcome;
  const subject = prepared.tool.approval?.(prepared.args, context) ?? null;
  if (subject && deps.gate) {
    const verdict = await deps.gate.check(subject, {
      sessionId: deps.sessionId,
      yolo: deps.yolo(),
      ask: deps.ask,
      signal: context.signal,
    });
    if (!verdict.allowed) {
      if (context.signal.aborted) return { result: INTERRUPTED_TOOL_RESULT, error: 'interrupted', interrupted: true };
      return { result: verdict.message, error: verdict.message, blocked: true };
    }
  }
  return deps.tools.execute(prepared.tool, prepared.args, context);
}
