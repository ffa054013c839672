import type { ChatMessage } from '../providers/types.ts';
import {
  ContextCompressionError,
  type CompressInput,
  type CompressionResult,
  type ContextEngine,
  type ShouldCompressInput,
} from './contextEngine.ts';
import { isCutPoint } from './messageSequence.ts';
import { buildSummaryPrompt, isSummaryMessage, makeSummaryMessage, shorten } from './summaryPrompt.ts';
import { estimateMessageTokens, estimateMessagesTokens, estimatePromptTokens, estimateTextTokens } from './tokens.ts';

export interface ContextCompressorOptions {
  /** Share of the window kept verbatim at the end of the prompt. Default 0.2. */
  tailRatio?: number;
  /** The first exchange stays whole while it fits in this share of the window, else only its user message. Default 0.1. */
  headRatio?: number;
  /** Summary length asked for, as a share of the tokens it replaces. Default 0.2. */
  summaryRatio?: number;
  /** Bounds on the summary length asked for, in tokens. Defaults 1000 and 8000; never above a tenth of the window. */
  minSummaryTokens?: number;
  maxSummaryTokens?: number;
}

/** Which messages a compression keeps and which it summarizes; indices into the input. */
export interface CompressionPlan {
  /** `messages[0, headEnd)` are kept: the system message and the first exchange. */
  headEnd: number;
  /** `messages[tailStart, n)` are kept: the recent tail. Always a cut point. */
  tailStart: number;
  /** The latest user message when the tail begins after it (one long agent turn): kept, after the summary. */
  keptUser: number | null;
  /** The messages the summary replaces, in order. Whole tool-call blocks only. */
  middle: number[];
}

type Ratios = Required<Pick<ContextCompressorOptions, 'tailRatio' | 'headRatio'>>;

/**
 * Chooses what to keep, or null when there is nothing worth summarizing. Pure, for tests.
 *
 * Kept verbatim: the system message; the first user message and, while it fits `headRatio`, its reply
 * up to the first assistant message without tool calls (the task statement is what later turns build
 * on); the longest tail that fits `tailRatio` and starts at a cut point, but at least the last message
 * block; and the latest user message, even when a long agent turn pushes it out of the tail, so the
 * request being worked on is never paraphrased.
 */
export function planCompression(messages: readonly ChatMessage[], contextMax: number, ratios: Ratios): CompressionPlan | null {
  const n = messages.length;
  const start = messages[0]?.role === 'system' ? 1 : 0;
  const firstUser = messages.findIndex((m, i) => i >= start && m.role === 'user');
  let headEnd = firstUser < 0 ? start : firstUser + 1;
  if (firstUser >= 0) {
    for (let i = firstUser + 1; i < n; i += 1) {
      const m = messages[i];
      if (m.role === 'user' || m.role === 'system') break;
      if (m.role === 'assistant' && !m.tool_calls?.length) {
        if (estimateMessagesTokens(messages.slice(0, i + 1)) <= ratios.headRatio * contextMax) headEnd = i + 1;
        break;
      }
    }
  }
  // A malformed input could put a tool result right after the head; never start the middle inside a block.
  while (!isCutPoint(messages, headEnd)) headEnd += 1;

  const budget = ratios.tailRatio * contextMax;
  let tailStart = n;
  let tailTokens = 0;
  for (let i = n - 1; i >= headEnd; i -= 1) {
    tailTokens += estimateMessageTokens(messages[i]);
    if (!isCutPoint(messages, i)) continue;
    if (tailTokens <= budget || tailStart === n) tailStart = i;
    if (tailTokens > budget) break;
  }

  let lastUser = -1;
  for (let i = n - 1; i >= 0; i -= 1) {
    if (messages[i].role === 'user' && !isSummaryMessage(messages[i])) {
      lastUser = i;
      break;
    }
  }
  const keptUser = lastUser >= headEnd && lastUser < tailStart ? lastUser : null;
  const middle: number[] = [];
  for (let i = headEnd; i < tailStart; i += 1) if (i !== keptUser) middle.push(i);
  // Re-summarizing nothing but earlier summaries would only lose detail.
  if (middle.every((i) => isSummaryMessage(messages[i]))) return null;
  return { headEnd, tailStart, keptUser, middle };
}

/**
 * The built-in engine. When the prompt passes `threshold` of the window, the middle of the history
 * (after the first exchange, before the recent tail) becomes one summary written by one model call.
 * An earlier summary sits right after the head, so the next compression folds it into the new one.
 */
export class ContextCompressor implements ContextEngine {
  readonly name = 'compressor';
  private readonly options: Required<ContextCompressorOptions>;

  constructor(options: ContextCompressorOptions = {}) {
    this.options = {
      tailRatio: options.tailRatio ?? 0.2,
      headRatio: options.headRatio ?? 0.1,
      summaryRatio: options.summaryRatio ?? 0.2,
      minSummaryTokens: options.minSummaryTokens ?? 1000,
      maxSummaryTokens: options.maxSummaryTokens ?? 8000,
    };
    for (const key of ['tailRatio', 'headRatio', 'summaryRatio'] as const) {
      const value = this.options[key];
      if (!(value > 0 && value < 1)) throw new RangeError(`context compressor: ${key} must be between 0 and 1 (got ${value})`);
    }
  }

  shouldCompress({ messages, tools, contextMax, threshold }: ShouldCompressInput): boolean {
    if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`compression threshold must be in (0, 1] (got ${threshold})`);
    return estimatePromptTokens(messages, tools) >= threshold * contextMax;
  }

  async compress(input: CompressInput): Promise<CompressionResult> {
    const { messages, tools = [], contextMax, signal } = input;
    const beforeTokens = estimatePromptTokens(messages, tools);
    const unchanged: CompressionResult = {
      messages: messages as ChatMessage[],
      removed: 0,
      beforeTokens,
      afterTokens: beforeTokens,
      summary: null,
    };
    const plan = planCompression(messages, contextMax, this.options);
    if (!plan) return unchanged;

    const middle = plan.middle.map((i) => messages[i]);
    const middleTokens = estimateMessagesTokens(middle);
    // Summaries scale with what they replace, within bounds; a small window cannot afford a large one.
    const ceiling = Math.min(this.options.maxSummaryTokens, Math.floor(contextMax / 10));
    const floor = Math.min(this.options.minSummaryTokens, ceiling);
    const target = Math.min(ceiling, Math.max(floor, Math.round(middleTokens * this.options.summaryRatio)));
    // The summary call goes to the same model, so prompt plus reply must fit its window.
    const prompt = buildSummaryPrompt(middle, {
      focusTopic: input.focusTopic,
      targetTokens: target,
      maxTranscriptTokens: Math.max(256, Math.floor(contextMax * 0.6) - target),
    });
    signal.throwIfAborted();
    const raw = (await input.summarize(prompt, signal)).trim();
    if (!raw) throw new ContextCompressionError('the model returned an empty summary; the prompt was left uncompressed');
    // Models overshoot length requests; a runaway summary must not refill the window it was meant to free.
    const summary = estimateTextTokens(raw) > target * 1.5 ? shorten(raw, Math.floor(target * 1.5)) : raw;

    const out: ChatMessage[] = [
      ...messages.slice(0, plan.headEnd),
      makeSummaryMessage(summary),
      ...(plan.keptUser === null ? [] : [messages[plan.keptUser]]),
      ...messages.slice(plan.tailStart),
    ];
    const afterTokens = estimatePromptTokens(out, tools);
    // A summary longer than what it replaces makes things worse; keep the original.
    if (afterTokens >= beforeTokens) return unchanged;
    return { messages: out, removed: middle.length, beforeTokens, afterTokens, summary };
  }
}
