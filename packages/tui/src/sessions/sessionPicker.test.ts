import type { SessionSummary } from '@hermes/rpc-server/protocol';
import { describe, expect, it } from 'vitest';
import { parseKeys } from '../input/keyParser.ts';
import {
  applyPickerKey,
  initialPicker,
  pendingQuery,
  pickerMatches,
  relativeTime,
  sessionLabel,
  visibleWindow,
  type PickerState,
} from './sessionPicker.ts';

const session = (id: string, title: string | null, preview: string): SessionSummary => ({
  id,
  title,
  preview,
  started_at: 1_700_000_000,
  message_count: 2,
  source: 'tui',
});

const SESSIONS = [
  session('s1', 'Deploy notes', 'how do I deploy'),
  session('s2', null, 'tell me about zanzibarite'),
  session('s3', 'Shopping', 'buy milk'),
];

const loaded = (): PickerState => ({ ...initialPicker('s1'), sessions: SESSIONS, loading: false });

/** Feeds raw terminal input through the picker. */
function press(state: PickerState, input: string) {
  let outcome;
  for (const key of parseKeys(input)) ({ state, outcome } = applyPickerKey(state, key));
  return { state, outcome };
}

describe('session picker', () => {
  it('lists every session until something is typed', () => {
    expect(pickerMatches(loaded()).map((s) => s.id)).toEqual(['s1', 's2', 's3']);
  });

  it('filters by title and preview as you type, case-insensitively, every word counting', () => {
    const { state } = press(loaded(), 'DEPLOY');
    expect(pickerMatches(state).map((s) => s.id)).toEqual(['s1']);
    expect(pickerMatches(press(loaded(), 'zanzib').state).map((s) => s.id)).toEqual(['s2']);
    expect(pickerMatches(press(loaded(), 'buy deploy').state)).toEqual([]);
  });

  it('adds the backend\'s full-text hits for the current query after the local matches', () => {
    const typed = press(loaded(), 'kettle').state;
    expect(pendingQuery(typed)).toBe('kettle');
    const answered = { ...typed, remote: { query: 'kettle', sessions: [session('s3', 'Shopping', 'buy milk'), session('s9', 'Old', 'x')] } };
    expect(pickerMatches(answered).map((s) => s.id)).toEqual(['s3', 's9']);
    expect(pendingQuery(answered)).toBeUndefined();
    // An answer for an older query is not mixed into the newer one's rows.
    const moved = press(answered, 's').state;
    expect(pickerMatches(moved).map((s) => s.id)).toEqual([]);
    expect(pendingQuery(moved)).toBe('kettles');
  });

  it('does not list a session twice when it matches locally and in the backend', () => {
    const typed = press(loaded(), 'milk').state;
    const answered = { ...typed, remote: { query: 'milk', sessions: [session('s3', 'Shopping', 'buy milk')] } };
    expect(pickerMatches(answered).map((s) => s.id)).toEqual(['s3']);
  });

  it('moves the selection with the arrows, wrapping, and resumes the selected session on Enter', () => {
    const { state, outcome } = press(loaded(), '\x1b[B\x1b[B\r');
    expect(state.selected).toBe(2);
    expect(outcome).toEqual({ kind: 'resume', session: SESSIONS[2] });
    expect(press(loaded(), '\x1b[A').state.selected).toBe(2);
  });

  it('resets the selection when the filter changes, and Backspace widens it again', () => {
    const moved = press(loaded(), '\x1b[Bde').state;
    expect(moved.selected).toBe(0);
    expect(moved.query).toBe('de');
    const back = press(moved, '\x7f\x7f').state;
    expect(back.query).toBe('');
    expect(pickerMatches(back)).toHaveLength(3);
  });

  it('closes on Esc, Ctrl+C and Ctrl+X; Enter with nothing matching does nothing', () => {
    expect(press(loaded(), '\x1b').outcome).toEqual({ kind: 'close' });
    expect(press(loaded(), '\x03').outcome).toEqual({ kind: 'close' });
    expect(press(loaded(), '\x18').outcome).toEqual({ kind: 'close' });
    expect(press(loaded(), 'nothing-like-this\r').outcome).toBeUndefined();
  });

  it('keeps the selection inside the visible window', () => {
    expect(visibleWindow(3, 2, 5)).toEqual({ start: 0, end: 3 });
    expect(visibleWindow(50, 0, 5)).toEqual({ start: 0, end: 5 });
    expect(visibleWindow(50, 20, 5)).toEqual({ start: 18, end: 23 });
    expect(visibleWindow(50, 49, 5)).toEqual({ start: 45, end: 50 });
  });

  it('says when a session started in words', () => {
    const now = 1_700_000_000;
    expect(relativeTime(now - 5, now)).toBe('just now');
    expect(relativeTime(now - 300, now)).toBe('5m ago');
    expect(relativeTime(now - 3 * 3600, now)).toBe('3h ago');
    expect(relativeTime(now - 2 * 86_400, now)).toBe('2d ago');
    expect(relativeTime(now - 90 * 86_400, now)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('names a session by its title, else its first prompt', () => {
    expect(sessionLabel({ title: 'Deploy', preview: 'x' })).toBe('Deploy');
    expect(sessionLabel({ title: null, preview: 'tell me\nabout it' })).toBe('tell me about it');
    expect(sessionLabel({ title: '  ', preview: '' })).toBe('(empty session)');
  });
});
