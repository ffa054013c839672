/**
 * The one exporter of a conversation: Markdown, JSON and HTML (`/save`, `session.export` behind
 * `hermes sessions export`), and the plain transcript `/history` prints. Pure functions of the
 * stored session and its messages, read as the client reads them (the contract's TranscriptMessage).
 */
import type { ExportFormat, TranscriptMessage } from '../contract/transcript.ts';
import type { StoredMessage, StoredSession } from '../sessions/sessionStore.ts';

/** What an export says about the session besides its messages. */
export interface ExportedSession {
  id: string;
  title: string | null;
  message_count: number;
  started_at?: number;
  source?: string;
  model?: string;
  provider?: string;
  cwd?: string;
}

/** Stored messages as the client sees them; a row still `streaming` belongs to a run that died mid-reply. */
export function toTranscript(messages: readonly StoredMessage[]): TranscriptMessage[] {
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
    ...(m.status && m.status !== 'complete' ? { status: m.status === 'streaming' ? ('interrupted' as const) : m.status } : {}),
    ...(m.toolOutcome ? { duration_s: m.toolOutcome.durationS } : {}),
    ...(m.toolOutcome?.error ? { error: m.toolOutcome.error } : {}),
    ...(m.toolOutcome?.blocked ? { blocked: true } : {}),
    ...(m.toolOutcome?.inlineDiff ? { inline_diff: m.toolOutcome.inlineDiff } : {}),
  }));
}

export function exportedSession(stored: StoredSession, messageCount: number): ExportedSession {
  return {
    id: stored.id,
    title: stored.title,
    message_count: messageCount,
    started_at: stored.started_at,
    source: stored.source,
    ...(stored.model ? { model: stored.model } : {}),
    ...(stored.provider ? { provider: stored.provider } : {}),
    ...(stored.cwd ? { cwd: stored.cwd } : {}),
  };
}

/** `2025-01-31 14:05` in local time, from seconds since the epoch. */
function localTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A fence longer than any run of backticks in `text`, so the block cannot be closed early. */
function fence(text: string, info = ''): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const marks = '`'.repeat(Math.max(3, longest + 1));
  return `${marks}${info}\n${text.replace(/\n$/, '')}\n${marks}`;
}

function prettyArguments(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

const HEADINGS: Record<TranscriptMessage['role'], string> = { user: 'User', assistant: 'Assistant', tool: 'Tool result', system: 'System' };

/** A readable Markdown transcript: roles as headings, tool calls and results as code blocks. */
export function toMarkdown(session: ExportedSession, messages: readonly TranscriptMessage[]): string {
  const facts = [
    `- Session: \`${session.id}\``,
    session.started_at !== undefined ? `- Started: ${localTime(session.started_at)}` : '',
    session.model ? `- Model: ${session.provider ? `${session.provider}/` : ''}${session.model}` : '',
    `- Messages: ${session.message_count}`,
  ].filter(Boolean);
  const parts = [`# ${session.title?.trim() || `Session ${session.id}`}`, facts.join('\n')];
  for (const message of messages) {
    const status = message.status && message.status !== 'complete' ? ` (${message.status})` : '';
    if (message.role === 'tool') {
      parts.push(`### ${HEADINGS.tool}: ${message.name ?? 'tool'}`, fence(message.text));
      continue;
    }
    parts.push(`## ${HEADINGS[message.role]}${status}`);
    if (message.text.trim()) parts.push(message.text.trim());
    for (const call of message.tool_calls ?? []) parts.push(`Tool call: \`${call.name}\``, fence(prettyArguments(call.arguments), 'json'));
  }
  return `${parts.join('\n\n')}\n`;
}

export function toJson(session: ExportedSession, messages: readonly TranscriptMessage[]): string {
  return `${JSON.stringify({ session, messages }, null, 2)}\n`;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The Markdown export in a standalone page (no renderer needed to read it). */
export function toHtml(session: ExportedSession, messages: readonly TranscriptMessage[]): string {
  const title = session.title?.trim() || `Session ${session.id}`;
  return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><pre>${escapeHtml(toMarkdown(session, messages))}</pre>\n`;
}

/** A stored session in one of the export formats. */
export function exportConversation(format: ExportFormat, stored: StoredSession, messages: readonly StoredMessage[]): string {
  const session = exportedSession(stored, messages.length);
  const transcript = toTranscript(messages);
  return format === 'json' ? toJson(session, transcript) : format === 'html' ? toHtml(session, transcript) : toMarkdown(session, transcript);
}

/** `/history`: one block per message, tool calls as `→ name args` lines. */
export function toTranscriptText(messages: readonly StoredMessage[]): string {
  return messages
    .map((m) => {
      const calls = m.toolCalls?.map((c) => `  → ${c.function.name} ${c.function.arguments}`).join('\n');
      const head = m.role === 'tool' ? `[${m.toolName ?? 'tool'} result]` : `[${m.role}]`;
      return [head, m.content ?? '', calls].filter(Boolean).join('\n');
    })
    .join('\n\n');
}
