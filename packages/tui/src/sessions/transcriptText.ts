/**
 * Sessions as text for `hermes sessions …`: the list as a table, search hits, a transcript to read
 * in the terminal. Pure functions of the backend's data (exports are the backend's: `session.export`).
 */
import type { SearchHit, SessionSummary, TranscriptMessage } from '@hermes/rpc-server/protocol';
import { toolCallContext } from '../state/historyItems.ts';
import { sessionLabel } from './sessionPicker.ts';

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

/** What `hermes sessions search` adds when a scan for text too short for an index stopped at its time budget. */
export function partialSearchNote(searchedSince: number): string {
  return `only messages since ${formatTimestamp(searchedSince)} were searched: text this short has no index; add --all to read every message\n`;
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
