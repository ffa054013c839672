import type { ChatMessage } from '../providers/types.ts';
import { estimateTextTokens } from './tokens.ts';

/**
 * The summary travels as a `user` message. A `system` message mid-conversation is rejected or hoisted
 * by the Anthropic and Gemini adapters and by many local chat templates; an `assistant` message reads
 * as the model's own words (it may continue it, or take instructions quoted in it as its own promises)
 * and cannot follow a system message on providers that want the user to speak first. A user message,
 * clearly marked as reference material rather than a request, is accepted everywhere.
 */
export const SUMMARY_PREFIX =
  '[CONTEXT SUMMARY] Earlier turns of this conversation were compressed into the summary below. ' +
  'It is reference material, not a new request.';
export const SUMMARY_SUFFIX = '[END OF CONTEXT SUMMARY] The conversation continues from here.';

export function makeSummaryMessage(summary: string): ChatMessage {
  return { role: 'user', content: `${SUMMARY_PREFIX}\n\n${summary}\n\n${SUMMARY_SUFFIX}` };
}

export function isSummaryMessage(message: ChatMessage): boolean {
  return message.role === 'user' && message.content.startsWith(SUMMARY_PREFIX);
}

/** The summary text inside a summary message, without the markers. */
export function summaryMessageText(message: ChatMessage): string {
  let text = message.content ?? '';
  if (text.startsWith(SUMMARY_PREFIX)) text = text.slice(SUMMARY_PREFIX.length);
  if (text.trimEnd().endsWith(SUMMARY_SUFFIX)) text = text.trimEnd().slice(0, -SUMMARY_SUFFIX.length);
  return text.trim();
}

const SYSTEM =
  'You write compact, factual summaries of a conversation between a user and an AI coding agent, so the ' +
  'agent can carry on after the earlier messages are removed from its context. Do not answer the user, ' +
  'continue the work or call tools: output only the summary, in the language the user writes in.';

export interface SummaryPromptOptions {
  focusTopic?: string;
  /** How long the summary should be, in tokens (asked for, not enforced). */
  targetTokens: number;
  /** How much of the window the transcript may take; longer messages are shortened in the middle. */
  maxTranscriptTokens: number;
}

/** The prompt for the one model call that summarizes `middle`. */
export function buildSummaryPrompt(middle: readonly ChatMessage[], options: SummaryPromptOptions): ChatMessage[] {
  const focus = options.focusTopic?.trim();
  const hasEarlier = middle.some(isSummaryMessage);
  const lines = [
    'Summarize the conversation excerpt below. It is the middle of a longer conversation: the first exchange ' +
      'and the most recent messages stay in the context verbatim and are not shown here.',
    ...(hasEarlier
      ? [
          'The excerpt contains an EARLIER SUMMARY of even older messages. Fold it into yours: keep every goal, ' +
            'decision, fact and open task from it unless later messages settle or replace them.',
        ]
      : []),
    '',
    'Use these sections, leaving out any that would be empty:',
    '## User goals: what the user asked for, with any constraints or preferences they stated.',
    '## Decisions: what was decided or chosen, and why.',
    '## Facts found: files read or changed (with paths), commands run and their results, errors seen, other ' +
      'findings. Keep exact names, paths, identifiers and numbers.',
    '## Open tasks: what remains to be done, including anything promised but not yet done.',
    ...(focus
      ? [`## Focus: ${focus}`, `The user asked to focus on "${focus}": keep everything about it in full detail, the rest brief.`]
      : []),
    '',
    `Keep the summary under about ${Math.max(50, Math.round(options.targetTokens * 0.75))} words.`,
    '',
    '<transcript>',
    renderTranscript(middle, options.maxTranscriptTokens),
    '</transcript>',
  ];
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: lines.join('\n') },
  ];
}

const EARLIER = 'EARLIER SUMMARY';

function renderTranscript(messages: readonly ChatMessage[], maxTokens: number): string {
  const toolNames = new Map<string, string>();
  const blocks = messages.map((message) => {
    if (isSummaryMessage(message)) return { label: EARLIER, text: summaryMessageText(message) };
    if (message.role === 'tool') {
      return { label: `tool result (${toolNames.get(message.tool_call_id) ?? message.tool_call_id})`, text: message.content };
    }
    let text = message.content ?? '';
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) {
        toolNames.set(call.id, call.function.name);
        text += `${text ? '\n' : ''}-> calls ${call.function.name} ${call.function.arguments}`;
      }
    }
    return { label: message.role, text };
  });
  // Each block costs its label, separators and a possible omission marker on top of its text.
  const overhead = 16;
  const minText = 16;
  // A window too small for every block even at minimum size loses the oldest messages first; an
  // earlier summary is never dropped, since it stands for everything before it.
  const room = Math.max(1, Math.floor(maxTokens / (overhead + minText)));
  let dropped = 0;
  const kept = blocks.filter((b) => {
    if (dropped >= blocks.length - room || b.label === EARLIER) return true;
    dropped += 1;
    return false;
  });
  const cap = waterLevel(
    kept.map((b) => estimateTextTokens(b.text)),
    maxTokens - (kept.length + 1) * overhead,
  );
  const rendered = kept.map((b) => `### ${b.label}\n${shorten(b.text, cap)}`);
  if (dropped > 0) rendered.unshift(`[${dropped} older messages omitted: they do not fit in the model's window]`);
  return rendered.join('\n\n');
}

/**
 * The largest per-message cap (in tokens) such that the capped sizes sum to at most `budget`: short
 * messages stay whole and only the longest ones (typically tool output) are shortened.
 */
export function waterLevel(sizes: readonly number[], budget: number): number {
  const sorted = [...sizes].sort((a, b) => a - b);
  let remaining = budget;
  for (let i = 0; i < sorted.length; i += 1) {
    const share = remaining / (sorted.length - i);
    if (sorted[i] > share) return Math.max(0, Math.floor(share));
    remaining -= sorted[i];
  }
  return Number.POSITIVE_INFINITY;
}

/** Cuts the middle out of `text` so it estimates to about `capTokens`; the start and end say the most. */
export function shorten(text: string, capTokens: number): string {
  const tokens = estimateTextTokens(text);
  if (tokens <= capTokens) return text;
  const keep = Math.max(0, Math.floor((text.length * capTokens) / tokens));
  const head = Math.ceil(keep * 0.7);
  const tail = keep - head;
  return `${text.slice(0, head)}\n[... ${text.length - keep} characters omitted ...]\n${text.slice(text.length - tail)}`;
}
