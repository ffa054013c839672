/**
 * The one exporter of a conversation: Markdown, JSON, HTML (`/save`), and the plain transcript
 * `/history` prints. Pure functions of the stored session and its messages.
 */
import type { StoredMessage, StoredSession } from '../sessions/sessionStore.ts';

export const EXPORT_FORMATS = ['md', 'json', 'html'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const HEADINGS: Record<StoredMessage['role'], string> = { user: 'User', assistant: 'Assistant', tool: 'Tool result', system: 'System' };

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

/** `2025-01-31 14:05 UTC`, from seconds since the epoch: the same in every time zone. */
function utcTime(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A readable Markdown transcript: roles as headings, tool calls and results as code blocks. */
export function toMarkdown(session: StoredSession, messages: readonly StoredMessage[]): string {
  const facts = [
    `- Session: \`${session.id}\``,
    `- Started: ${utcTime(session.started_at)}`,
    session.model ? `- Model: ${session.provider ? `${session.provider}/` : ''}${session.model}` : '',
    `- Messages: ${messages.length}`,
  ].filter(Boolean);
  const parts = [`# ${session.title?.trim() || `Session ${session.id}`}`, facts.join('\n')];
  for (const message of messages) {
    const status = message.status && message.status !== 'complete' ? ` (${message.status})` : '';
    if (message.role === 'tool') {
      parts.push(`### ${HEADINGS.tool}: ${message.toolName ?? 'tool'}`, fence(message.content ?? ''));
      continue;
    }
    parts.push(`## ${HEADINGS[message.role]}${status}`);
    if (message.content?.trim()) parts.push(message.content.trim());
    for (const call of message.toolCalls ?? []) parts.push(`Tool call: \`${call.function.name}\``, fence(prettyArguments(call.function.arguments), 'json'));
  }
  return `${parts.join('\n\n')}\n`;
}

export function toJson(session: StoredSession, messages: readonly StoredMessage[]): string {
  return `${JSON.stringify({ session, messages }, null, 2)}\n`;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The Markdown export in a standalone page (no renderer needed to read it). */
export function toHtml(session: StoredSession, messages: readonly StoredMessage[]): string {
  const title = session.title?.trim() || `Session ${session.id}`;
  return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><pre>${escapeHtml(toMarkdown(session, messages))}</pre>\n`;
}

export function exportConversation(format: ExportFormat, session: StoredSession, messages: readonly StoredMessage[]): string {
  return format === 'json' ? toJson(session, messages) : format === 'html' ? toHtml(session, messages) : toMarkdown(session, messages);
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
