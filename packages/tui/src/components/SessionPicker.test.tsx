import type { SessionSummary } from '@hermes/rpc-server/protocol';
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { PickerState } from '../sessions/sessionPicker.ts';
import { overflowing, renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { SessionPicker } from './SessionPicker.tsx';

const HOUR = 3_600;
/** Started `hoursAgo` before the render (a day and more apart, so a slow run cannot move a label). */
const session = (id: string, hoursAgo: number, fields: Partial<SessionSummary> = {}): SessionSummary => ({
  id,
  title: null,
  preview: `prompt of ${id}`,
  started_at: Date.now() / 1000 - hoursAgo * HOUR,
  message_count: 4,
  source: 'tui',
  ...fields,
});
const SESSIONS = [
  session('s1', 3, { title: 'Fix the login redirect', message_count: 12 }),
  session('s2', 50, { preview: 'why does   the build\nfail on CI?' }),
  session('s3', 100, { title: '日本語のセッション名です' }),
];
const picker = (state: Partial<PickerState>) =>
  createStore<PickerState | undefined>(() => ({ query: '', sessions: SESSIONS, selected: 0, currentId: 's1', loading: false, ...state }));
const draw = (state: Partial<PickerState>, columns = 80, maxRows = 12) => renderRows(<SessionPicker store={picker(state)} width={columns} maxRows={maxRows} />, columns);

describe('SessionPicker', () => {
  it('lists sessions with when, how many messages, and the title or first prompt; marks the current one and the selection', () => {
    const rows = draw({ selected: 1 });
    expect(rows[0]).toMatch(/^─{80}$/);
    expect(rows.slice(1)).toEqual([
      'Sessions · type to filter · ↑/↓ select · Enter resume · Esc close',
      'filter:',
      '  3h ago     12 msg   Fix the login redirect (current)',
      '❯ 2d ago     4 msg    why does the build fail on CI?',
      '  4d ago     4 msg    日本語のセッション名です',
      '2 of 3',
    ]);
    const styled = renderStyled(<SessionPicker store={picker({ selected: 1 })} width={80} maxRows={12} />, 80);
    expect(stylesAt(styled, '❯ 2d ago')).toEqual(['cyan', 'inverse']);
    expect(stylesAt(styled, '(current)')).toEqual(['dim']);
  });

  it('scrolls a long list in its rows, saying how many are below', () => {
    const many = Array.from({ length: 20 }, (_, i) => session(`m${i}`, 30 + i * 24, { title: `session ${i}` }));
    const rows = draw({ sessions: many, selected: 0 }, 80, 8);
    expect(rows).toHaveLength(8);
    expect(rows.at(-1)).toBe('1 of 20 · 16 more below');
  });

  it('filters by what was typed and says what it is waiting for or what went wrong', () => {
    expect(draw({ query: 'login' }).slice(2, -1)).toEqual(['filter: login', '❯ 3h ago     12 msg   Fix the login redirect (current)']);
    expect(draw({ query: 'zzz', remote: { query: 'zzz', sessions: [] } }).at(-1)).toBe('no session matches');
    expect(draw({ query: 'zzz' }).at(-1)).toBe('searching…');
    expect(draw({ sessions: [], loading: true }).at(-1)).toBe('loading sessions…');
    expect(draw({ sessions: [] }).at(-1)).toBe('no saved sessions yet');
    const failed = { sessions: [], error: 'database is locked' };
    expect(draw(failed).at(-1)).toBe('could not list sessions: database is locked');
    expect(stylesAt(renderStyled(<SessionPicker store={picker(failed)} width={80} maxRows={12} />, 80), 'could not')).toEqual(['dim', 'red']);
  });

  it('cuts every row at 40 columns, wide titles included', () => {
    const rows = draw({}, 40);
    expect(overflowing(rows, 40)).toEqual([]);
    expect(rows[1]).toBe('Sessions · type to filter · ↑/↓ select …');
    expect(rows[5]).toBe('  4d ago     4 msg    日本語のセッショ…');
    expect(rows[3]).toBe('❯ 3h ago     12 msg   Fix the… (current)');
  });

  it('draws nothing when closed', () => {
    expect(renderRows(<SessionPicker store={createStore<PickerState | undefined>(() => undefined)} width={80} maxRows={10} />, 80)).toEqual(['']);
  });
});
