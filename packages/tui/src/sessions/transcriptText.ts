/**
 * Sessions as text for `hermes sessions …`: the list as a table, search hits, a transcript to read
 * in the terminal, and the Markdown and JSON exports. Pure functions of the backend's data.
 */
import type { SearchHit, SessionSummary, TranscriptMessage } from '@hermes/rpc-server/protocol';
import { toolCallContext } from '../state/historyItems.ts';
import { sessionLabel } from './sessionPicker.ts';

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

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** `2025-01-31 14:05` in local time, from seconds since the epoch. */
export function formatTimestamp(seconds: number): string {
  const date = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

export function formatSessionTable(sessions: readonly SessionSummary[]): string {
  if (!sessions.length) return 'no saved sessions yet\n';
  return table(
    ['ID', 'STARTED', 'MESSAGES', 'TITLE'],
    sessions.map((session) => [session.id, formatTimestamp(session.started_at), String(session.message_count), clip(sessionLabel(session), 60)]),
  );
}

export function formatSearchHits(hits: readonly SearchHit[]): string {
  if (!hits.length) return 'no matches\n';
  return table(
    ['SESSION', 'ROLE', 'WHEN', 'SNIPPET'],
    hits.map((hit) => [hit.session_id, hit.role, formatTimestamp(hit.timestamp), clip(oneLine(hit.snippet), 100)]),
  );
}

const ROLE_NAMES: Record<TranscriptMessage['role'], string> = { user: 'you', assistant: 'hermes', tool: 'tool', system: 'system' };

/** A transcript to read in the terminal: one block per message, tool calls as `⚙ name context` lines. */
export function formatTranscript(messages: readonly TranscriptMessage[]): string {
  const blocks: string[] = [];
  for (const message of messages) {
    if (message.role === 'tool') {
      blocks.push(`  ↳ ${message.name ?? 'tool'} result: ${clip(oneLine(message.text), 200)}`);
      continue;
    }
    const mark = message.status && message.status !== 'complete' ? ` [${message.status}]` : '';
    const lines: string[] = [];
    if (message.text.trim() || mark) lines.push(`${ROLE_NAMES[message.role]}:${mark} ${message.text.trim()}`.trimEnd());
    for (const call of message.tool_calls ?? []) lines.push(`  ⚙ ${call.name} ${toolCallContext(call.arguments)}`.trimEnd());
    if (lines.length) blocks.push(lines.join('\n'));
  }
  return blocks.length ? `${blocks.join('\n\n')}\n` : '(no messages)\n';
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
export function formatMarkdown(session: ExportedSession, messages: readonly TranscriptMessage[]): string {
  const facts = [
    `- Session: \`${session.id}\``,
    session.started_at !== undefined ? `- Started: ${formatTimestamp(session.started_at)}` : '',
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

export function formatJson(session: ExportedSession, messages: readonly TranscriptMessage[]): string {
  return `${JSON.stringify({ session, messages }, null, 2)}\n`;
}
