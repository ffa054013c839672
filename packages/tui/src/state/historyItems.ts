/**
 * Turns a stored transcript (from `session.resume`) into transcript items, so a resumed session reads
 * like one watched live: prompts, replies, and one row per tool call with a one-line context.
 */
import { summarizeResult, type TranscriptMessage } from '@hermes/rpc-server/protocol';
import type { ToolCallView, ToolStatus, TranscriptItem } from './viewState.ts';

/** A transcript item before the reducer numbers it. */
export type NewItem = TranscriptItem extends infer T ? (T extends TranscriptItem ? Omit<T, 'id'> : never) : never;

export const INTERRUPTED_NOTE = 'interrupted (the previous run ended before this reply finished)';
export const UNANSWERED_NOTE = 'no reply (the previous run ended before answering this prompt)';

/** Argument fields that say best what a call did, most telling first. */
const CONTEXT_FIELDS = ['command', 'path', 'file_path', 'file', 'query', 'pattern', 'url', 'question', 'name', 'action'];
const MAX_CONTEXT = 120;

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const clip = (text: string) => (text.length > MAX_CONTEXT ? `${text.slice(0, MAX_CONTEXT - 1)}…` : text);

/** A one-line preview of a tool call from the arguments the model wrote (a JSON string). */
export function toolCallContext(rawArguments: string): string {
  let args: unknown;
  try {
    args = JSON.parse(rawArguments);
  } catch {
    return clip(oneLine(rawArguments));
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return clip(oneLine(String(rawArguments)));
  const record = args as Record<string, unknown>;
  for (const field of CONTEXT_FIELDS) {
    const value = record[field];
    if (typeof value === 'string' && value.trim()) return clip(oneLine(value));
  }
  const firstString = Object.values(record).find((value): value is string => typeof value === 'string' && value.trim() !== '');
  if (firstString !== undefined) return clip(oneLine(firstString));
  return Object.keys(record).length ? clip(oneLine(JSON.stringify(record))) : '';
}

/**
 * How a stored result ended, as `tool.complete` said it live. A result stored `interrupted` (the run
 * stopped it, or the heal wrote it for a call that never ended) gets no ✓; nor does a blocked or failed one.
 */
function resultStatus(message: TranscriptMessage): ToolStatus {
  if (message.status === 'interrupted') return 'interrupted';
  if (message.blocked) return 'blocked';
  return message.error ? 'failed' : 'done';
}

/** What a tool row shows of its stored result: its status, duration, summary, error, diff and output, as live. */
type StoredOutcome = Pick<ToolCallView, 'status' | 'durationS' | 'summary' | 'error' | 'diff' | 'output'>;

function storedOutcome(message: TranscriptMessage): StoredOutcome {
  return {
    status: resultStatus(message),
    summary: summarizeResult(message.text),
    ...(message.duration_s !== undefined ? { durationS: message.duration_s } : {}),
    ...(message.error ? { error: message.error } : {}),
    ...(message.inline_diff?.trim() ? { diff: message.inline_diff } : {}),
    ...(message.text.trim() ? { output: message.text } : {}),
  };
}

/**
 * The items of `messages`; with `before`, only those of the messages before that index (the start of a
 * transcript whose end is already on screen), tool rows still ending as the messages after them say.
 */
export function itemsFromHistory(messages: readonly TranscriptMessage[], before = messages.length): NewItem[] {
  const answered = new Map(messages.flatMap((m) => (m.role === 'tool' && m.tool_call_id ? [[m.tool_call_id, storedOutcome(m)] as const] : [])));
  const called = new Set(messages.flatMap((m) => (m.tool_calls ?? []).map((call) => call.id)));
  const items: NewItem[] = [];
  for (const message of messages.slice(0, before)) {
    if (message.role === 'user') items.push({ kind: 'user', text: message.text });
    else if (message.role === 'assistant') {
      const status = message.status && message.status !== 'complete' ? message.status : undefined;
      if (message.text.trim() || (status && !message.tool_calls?.length))
        items.push({ kind: 'assistant', text: message.text.trim(), continued: false, status });
      for (const call of message.tool_calls ?? [])
        items.push({
          kind: 'tool',
          tool: {
            toolId: call.id,
            name: call.name,
            context: toolCallContext(call.arguments),
            // A call without a result never finished: the run ended while it was going.
            ...(answered.get(call.id) ?? { status: 'interrupted' }),
          },
        });
    } else if (message.role === 'tool') {
      // Results of calls listed above are already shown as those calls' rows.
      if (message.tool_call_id && called.has(message.tool_call_id)) continue;
      items.push({ kind: 'tool', tool: { toolId: message.tool_call_id ?? '', name: message.name ?? 'tool', context: '', ...storedOutcome(message) } });
    } else if (message.text.trim()) items.push({ kind: 'notice', level: 'info', text: message.text.trim() });
  }
  if (before < messages.length) return items;
  const last = messages.at(-1);
  if ((last?.role === 'assistant' && last.status === 'interrupted') || last?.role === 'tool') items.push({ kind: 'notice', level: 'warn', text: INTERRUPTED_NOTE });
  else if (last?.role === 'user') items.push({ kind: 'notice', level: 'warn', text: UNANSWERED_NOTE });
  return items;
}
