/**
 * The session picker's pure logic: which sessions match what was typed (locally by title and preview,
 * plus the backend's full-text hits for the same query), which one is selected, and what a key does.
 */
import type { SessionSummary } from '@hermes/rpc-server/protocol';
import type { Key } from '../input/keyParser.ts';

export interface PickerState {
  query: string;
  /** The recent sessions fetched when the picker opened, newest first. */
  sessions: SessionSummary[];
  /** The backend's answer to `session.list {query}` for `query` (full-text hits included). */
  remote?: { query: string; sessions: SessionSummary[] };
  selected: number;
  /** The stored id of the session on screen, marked in the list. */
  currentId?: string;
  loading: boolean;
  error?: string;
}

export type PickerOutcome = { kind: 'close' } | { kind: 'resume'; session: SessionSummary } | undefined;

export function initialPicker(currentId?: string): PickerState {
  return { query: '', sessions: [], selected: 0, currentId, loading: true };
}

const words = (query: string) => query.toLowerCase().split(/\s+/).filter(Boolean);

/** True when every typed word appears in the session's title, preview or id. */
export function matchesLocally(session: SessionSummary, query: string): boolean {
  const haystack = `${session.title ?? ''} ${session.preview} ${session.id}`.toLowerCase();
  return words(query).every((word) => haystack.includes(word));
}

/** The rows to show: local matches first, then the backend's hits for the current query that are not among them. */
export function pickerMatches(state: PickerState): SessionSummary[] {
  if (!words(state.query).length) return state.sessions;
  const local = state.sessions.filter((session) => matchesLocally(session, state.query));
  if (state.remote?.query !== state.query) return local;
  const seen = new Set(local.map((session) => session.id));
  return [...local, ...state.remote.sessions.filter((session) => !seen.has(session.id))];
}

/** The query the backend should be asked about, or undefined when its answer is already in. */
export function pendingQuery(state: PickerState): string | undefined {
  const query = state.query.trim();
  if (!query || state.remote?.query === state.query) return undefined;
  return query;
}

function withQuery(state: PickerState, query: string): PickerState {
  return { ...state, query, selected: 0 };
}

/** Applies one key: typing filters, ↑/↓ select, Enter resumes the selection, Esc (or Ctrl+C, Ctrl+X) closes. */
export function applyPickerKey(state: PickerState, key: Key): { state: PickerState; outcome: PickerOutcome } {
  const count = pickerMatches(state).length;
  const same = { state, outcome: undefined };
  if (key.type === 'text' || key.type === 'paste') {
    const text = key.text.replace(/[\r\n\t]+/g, ' ');
    return { state: withQuery(state, state.query + text), outcome: undefined };
  }
  if (key.ctrl && (key.name === 'c' || key.name === 'x')) return { state, outcome: { kind: 'close' } };
  if (key.ctrl && key.name === 'u') return { state: withQuery(state, ''), outcome: undefined };
  switch (key.name) {
    case 'escape':
      return { state, outcome: { kind: 'close' } };
    case 'up':
      return count ? { state: { ...state, selected: (state.selected - 1 + count) % count }, outcome: undefined } : same;
    case 'down':
      return count ? { state: { ...state, selected: (state.selected + 1) % count }, outcome: undefined } : same;
    case 'pageup':
      return { state: { ...state, selected: 0 }, outcome: undefined };
    case 'pagedown':
      return { state: { ...state, selected: Math.max(0, count - 1) }, outcome: undefined };
    case 'backspace':
      return state.query ? { state: withQuery(state, [...state.query].slice(0, -1).join('')), outcome: undefined } : same;
    case 'enter': {
      const session = pickerMatches(state)[Math.min(state.selected, count - 1)];
      return session ? { state, outcome: { kind: 'resume', session } } : same;
    }
  }
  return same;
}

/** The slice of `count` rows to show in `rows` lines, keeping the selection in view. */
export function visibleWindow(count: number, selected: number, rows: number): { start: number; end: number } {
  const size = Math.max(1, rows);
  if (count <= size) return { start: 0, end: count };
  const start = Math.min(Math.max(0, selected - Math.floor(size / 2)), count - size);
  return { start, end: start + size };
}

/** "just now", "5m ago", "3h ago", "2d ago", or the date for older ones. `at` and `now` are in seconds. */
export function relativeTime(at: number, now: number): string {
  const seconds = Math.max(0, now - at);
  if (seconds < 60) return 'just now';
  if (seconds < 3_600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3_600)}h ago`;
  if (seconds < 30 * 86_400) return `${Math.floor(seconds / 86_400)}d ago`;
  return new Date(at * 1000).toISOString().slice(0, 10);
}

/** What a session is called in lists: its title, else the start of its first prompt. */
export function sessionLabel(session: Pick<SessionSummary, 'title' | 'preview'>): string {
  const label = (session.title ?? '').trim() || session.preview.replace(/\s+/g, ' ').trim();
  return label || '(empty session)';
}
