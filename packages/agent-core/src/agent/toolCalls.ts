import type { ApprovalGate } from '../approvals/approvalGate.ts';
import type { AskApproval } from '../approvals/types.ts';
import type { Guardian } from '../approvals/smart/guardian.ts';
import { firstBlock, firstString, type ExtensionPort } from '../extensions/extensionPort.ts';
import { ErrorCode } from '../contract/errorCodes.ts';
import { HermesError } from '../contract/errors.ts';
import type { Logger } from '../logging/logger.ts';
import type { ChatMessage, ToolCall, ToolSchema } from '../providers/types.ts';
import { redactSecrets, redactSecretsDeep } from '../secrets/processSecrets.ts';
import { isSqliteFailure } from '../sessions/storeError.ts';
import type { SessionStore } from '../sessions/sessionStore.ts';
import { TOOL_ERROR_PREFIX, type ToolRegistry } from '../tools/registry.ts';
import type { ToolContext } from '../tools/types.ts';
import type { AgentEventSink } from './events.ts';
import { summarizeResult } from '../contract/toolSummary.ts';

export const INTERRUPTED_TOOL_RESULT = '[interrupted] The user interrupted the turn before this tool call finished.';

/** The result of a call the turn's abort cut off: the user's interrupt, or hermes itself stopping (SIGTERM, input closed). */
function interruptedResult(signal: AbortSignal): CallResult {
  const reason = signal.reason instanceof Error ? signal.reason.message : '';
  const result = reason.startsWith('hermes stopped') ? `[interrupted] ${reason}: the turn ended before this tool call finished.` : INTERRUPTED_TOOL_RESULT;
  return { result, error: 'interrupted', interrupted: true };
}

/** The state.db or its disk failed: the call's result could not be stored either, so the turn cannot go on. */
function isStorageFailure(error: unknown): boolean {
  return isSqliteFailure(error) || (error instanceof HermesError && error.code === ErrorCode.StorageError);
}

/**
 * A step around the tool (middleware, hooks, the tool's approval(), the gate) threw for a reason
 * other than an abort: logged with where it happened, and answered as this call's error, which the
 * model reads and the client shows; the turn goes on.
 */
function failedCall(deps: ToolCallDeps, call: ToolCall, step: string, error: unknown): CallResult {
  const reason = error instanceof Error ? error.message : String(error);
  deps.logger.error(
    'session %s: tool call %s (%s) failed in %s: %s',
    deps.sessionId,
    call.id,
    call.function.name,
    step,
    redactSecrets(error instanceof Error ? (error.stack ?? reason) : reason),
  );
  const text = `${call.function.name} was not run: ${step} failed: ${reason}`;
  return { result: `${TOOL_ERROR_PREFIX} ${text}`, error: text };
}

export interface ToolCallDeps {
  sessionId: string;
  turnId: string;
  tools: ToolRegistry;
  /** The schemas offered to the model (the session's enabled toolsets). */
  toolSchemas: ToolSchema[];
  /** Calls are judged against the toolsets offered, so the model cannot reach a tool it was not given. */
  toolsets: string[] | undefined;
  store: SessionStore;
  emit: AgentEventSink;
  extensions: ExtensionPort;
  /** Everything a tool sees but the per-call signal and progress callback. */
  context: Omit<ToolContext, 'signal' | 'progress'>;
  gate: ApprovalGate | null;
  /** Smart approval's guardian, used by the gate in mode `smart`. */
  guardian?: Guardian;
  ask: AskApproval;
  yolo: () => boolean;
  logger: Logger;
}

interface CallResult {
  result: string;
  error?: string;
  blocked?: boolean;
  inlineDiff?: string;
  interrupted?: boolean;
  /** Seconds the call took without the approval wait; unset for a call cut off before it started. */
  durationS?: number;
}

/** A call's clock: the time spent waiting for approval is not the tool's, so it is left out of its duration. */
interface CallClock {
  started: number;
  waited: number;
}

const elapsedMs = (clock: CallClock) => performance.now() - clock.started - clock.waited;

const callKey = (call: ToolCall) => `${call.function.name}\u0000${call.function.arguments.trim()}`;

/**
 * Runs one model response's tool calls. Identical calls (same tool, same arguments) run once and
 * share the result. Consecutive read-only calls run in parallel; everything else runs alone, in
 * order. Results are stored and added to the history in call order as soon as each is known, and every
 * call gets a result message (interrupted ones too), so the history stays valid. Returns true if the user interrupted.
 */
export async function runToolCalls(deps: ToolCallDeps, calls: ToolCall[], history: ChatMessage[], signal: AbortSignal): Promise<boolean> {
  const firstOf = new Map<string, ToolCall>();
  const unique = calls.filter((call) => {
    if (firstOf.has(callKey(call))) return false;
    firstOf.set(callKey(call), call);
    return true;
  });
  const results = new Map<string, CallResult>();
  let interrupted = false;
  let stored = 0;
  // Stores, in call order, every result known so far: a call that finished is kept even if hermes dies
  // while a later call of the same message runs (the heal then answers only the unfinished ones).
  const storeReady = () => {
    for (; stored < calls.length; stored++) {
      const call = calls[stored]!;
      const outcome = results.get(firstOf.get(callKey(call))!.id);
      if (!outcome) return;
      if (outcome.interrupted) interrupted = true;
      deps.store.appendMessage(deps.sessionId, {
        role: 'tool',
        content: outcome.result,
        toolName: call.function.name,
        toolCallId: call.id,
        ...(outcome.interrupted ? { status: 'interrupted' as const } : {}),
        ...(outcome.durationS !== undefined
          ? {
              toolOutcome: {
                durationS: outcome.durationS,
                ...(outcome.error ? { error: outcome.error } : {}),
                ...(outcome.blocked ? { blocked: true } : {}),
                ...(outcome.inlineDiff ? { inlineDiff: outcome.inlineDiff } : {}),
              },
            }
          : {}),
      });
      history.push({ role: 'tool', tool_call_id: call.id, content: outcome.result });
    }
  };
  let index = 0;
  while (index < unique.length) {
    const readOnly = (call: ToolCall) => deps.tools.get(call.function.name)?.readOnly === true;
    const batch = [unique[index]!];
    if (readOnly(batch[0]!)) while (index + batch.length < unique.length && readOnly(unique[index + batch.length]!)) batch.push(unique[index + batch.length]!);
    index += batch.length;
    const outcomes = signal.aborted
      ? batch.map(() => interruptedResult(signal))
      : await Promise.all(batch.map((call) => runOne(deps, call, signal)));
    batch.forEach((call, i) => results.set(call.id, outcomes[i]!));
    storeReady();
  }
  return interrupted || signal.aborted;
}

async function runOne(deps: ToolCallDeps, call: ToolCall, signal: AbortSignal): Promise<CallResult> {
  const { emit, tools } = deps;
  const name = call.function.name;
  const clock: CallClock = { started: performance.now(), waited: 0 };
  emit({ type: 'tool.start', payload: { tool_id: call.id, name, context: tools.preview(name, call.function.arguments) } });
  const context: ToolContext = {
    ...deps.context,
    signal,
    progress: (preview) => emit({ type: 'tool.progress', payload: { tool_id: call.id, name, preview } }),
  };
  let outcome: CallResult;
  const step = { now: 'preparing the call' };
  try {
    outcome = await judgeAndRun(deps, call, context, clock, step);
    // A tool that returns what it had when stopped (the terminal's partial output) still ran interrupted.
    if (signal.aborted) outcome = { ...outcome, interrupted: true };
  } catch (error) {
    // An abort is an interruption (the user, or hermes stopping) while this call ran.
    if (signal.aborted) outcome = interruptedResult(signal);
    // The store failed: no result could be kept; the turn ends as failed with the store's explanation.
    else if (isStorageFailure(error)) throw error;
    else outcome = failedCall(deps, call, step.now, error);
  }
  // Output may carry secrets (`env`, a .env file): removed before it is shown, stored or sent to the model.
  const durationS = Math.round(elapsedMs(clock)) / 1000;
  outcome = { ...redactSecretsDeep(outcome), durationS };
  emit({
    type: 'tool.complete',
    payload: {
      tool_id: call.id,
      name,
      duration_s: durationS,
      summary: summarizeResult(outcome.result),
      result: outcome.result,
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(outcome.blocked ? { blocked: true } : {}),
      ...(outcome.interrupted ? { interrupted: true } : {}),
      ...(outcome.inlineDiff ? { inline_diff: outcome.inlineDiff } : {}),
    },
  });
  return outcome;
}

/**
 * The documented order: parse args → `tool_request` middleware → `pre_tool_call` hooks → approval
 * (both judge the rewritten args) → `tool_execution` middleware around the tool → `post_tool_call` →
 * `transform_tool_result`.
 */
async function judgeAndRun(deps: ToolCallDeps, call: ToolCall, context: ToolContext, clock: CallClock, step: { now: string }): Promise<CallResult> {
  const { extensions } = deps;
  const name = call.function.name;
  const prepared = deps.tools.prepare(name, call.function.arguments, deps.toolsets);
  if (!prepared.ok) return prepared.outcome;
  const runContext = { session_id: deps.sessionId, task_id: deps.turnId, turn_id: deps.turnId, tool_name: name, tool_call_id: call.id };
  step.now = 'the tool_request middleware';
  const { payload: args, trace } = await extensions.applyRequestMiddleware('tool_request', prepared.args, runContext, context.signal);

  let outcome: CallResult | null = null;
  step.now = 'the pre_tool_call hooks';
  const block = firstBlock(await extensions.invokeHook('pre_tool_call', { ...runContext, args, middleware_trace: trace }, context.signal));
  if (block) outcome = { result: block, error: block, blocked: true };
  step.now = `the approval() of tool ${name}`;
  const subject = outcome ? null : (prepared.tool.approval?.(args, context) ?? null);
  if (subject && deps.gate) {
    step.now = 'the approval gate';
    const asked = performance.now();
    const verdict = await deps.gate
      .check(subject, { sessionId: deps.sessionId, yolo: deps.yolo(), ask: deps.ask, signal: context.signal, cwd: context.cwd, guardian: deps.guardian })
      .finally(() => (clock.waited += performance.now() - asked));
    if (verdict.allowed && verdict.warning) deps.emit({ type: 'status.update', payload: { kind: 'warn', text: verdict.warning } });
    if (!verdict.allowed) {
      if (context.signal.aborted) return interruptedResult(context.signal);
      outcome = { result: verdict.message, error: verdict.message, blocked: true };
    }
  }
  if (!outcome) {
    step.now = 'the tool_execution middleware';
    // The seed's contract: the chain passes the result string; the tool's flags stay with it.
    let ran: CallResult | null = null;
    const result = await extensions.runExecutionMiddleware(
      'tool_execution',
      args,
      { ...runContext, original_args: prepared.args, middleware_trace: trace },
      async (finalArgs) => (ran = await deps.tools.execute(prepared.tool, finalArgs, context)).result,
      context.signal,
    );
    outcome = { ...(ran ?? {}), result };
  }
  const observed = {
    ...runContext,
    args,
    result: outcome.result,
    duration_ms: Math.round(elapsedMs(clock)),
    status: outcome.blocked ? 'blocked' : outcome.error ? 'error' : 'ok',
  };
  step.now = 'the post_tool_call hooks';
  await extensions.invokeHook('post_tool_call', { ...observed, middleware_trace: trace }, context.signal);
  step.now = 'the transform_tool_result hooks';
  const replaced = firstString(await extensions.invokeHook('transform_tool_result', observed, context.signal));
  return replaced === null ? outcome : { ...outcome, result: replaced };
}
