import { describe, expect, it } from 'vitest';
import type { Key } from '../input/keyParser.ts';
import { createComposerSideStore, createComposerStore } from '../state/composerStore.ts';
import { ESC_ESC_MS, HistoryKeys } from './historyKeys.ts';
import { PromptHistory } from './promptHistory.ts';

const key = (name: string, modifiers: { ctrl?: boolean; meta?: boolean; shift?: boolean } = {}): Key => ({
  type: 'key',
  name,
  ctrl: false,
  meta: false,
  shift: false,
  ...modifiers,
});
const text = (value: string): Key => ({ type: 'text', text: value });

function setup(entries: string[], options: { busy?: boolean } = {}) {
  const composer = createComposerStore();
  const side = createComposerSideStore();
  const history = new PromptHistory(undefined, () => undefined);
  for (const entry of entries) history.add(entry);
  let clock = 0;
  let interrupts = 0;
  const keys = new HistoryKeys({
    composer,
    side,
    history,
    busy: () => options.busy ?? false,
    interrupt: () => interrupts++,
    now: () => clock,
  });
  return {
    composer,
    side,
    history,
    keys,
    press: (k: Key) => keys.key(k),
    tick: (ms: number) => (clock += ms),
    interrupts: () => interrupts,
    draft: () => composer.getState().draft,
  };
}

describe('composer history keys', () => {
  it('↑ on the first line walks back through the history, ↓ on the last line forward to the draft', () => {
    const t = setup(['first', 'second']);
    t.composer.setState({ draft: 'typing', cursor: 3 });
    expect(t.press(key('up'))).toBe(true);
    expect(t.composer.getState()).toEqual({ draft: 'second', cursor: 6 });
    t.press(key('up'));
    expect(t.draft()).toBe('first');
    // The oldest: ↑ is left to the composer.
    expect(t.press(key('up'))).toBe(false);
    t.press(key('down'));
    t.press(key('down'));
    expect(t.draft()).toBe('typing');
    expect(t.press(key('down'))).toBe(false);
  });

  it('↑ below the first line of a draft moves the cursor (the composer), not through the history', () => {
    const t = setup(['old']);
    t.composer.setState({ draft: 'line one\nline two', cursor: 12 });
    expect(t.press(key('up'))).toBe(false);
    t.composer.setState({ draft: 'line one\nline two', cursor: 2 });
    expect(t.press(key('down'))).toBe(false);
  });

  it('↑ on an empty draft takes back the newest queued prompt to edit', () => {
    const t = setup(['old']);
    t.side.setState({ queued: ['one', 'two'] });
    t.press(key('up'));
    expect(t.draft()).toBe('two');
    expect(t.side.getState().queued).toEqual(['one']);
  });

  it('Esc interrupts a running turn', () => {
    const t = setup([], { busy: true });
    t.composer.setState({ draft: 'keep me', cursor: 7 });
    expect(t.press(key('escape'))).toBe(true);
    expect(t.interrupts()).toBe(1);
    expect(t.draft()).toBe('keep me');
  });

  it('Esc Esc when idle clears the draft into the history; two slow presses do not', () => {
    const t = setup([]);
    t.composer.setState({ draft: 'draft text', cursor: 10 });
    t.press(key('escape'));
    t.tick(ESC_ESC_MS + 1);
    t.press(key('escape'));
    expect(t.draft()).toBe('draft text');
    t.tick(ESC_ESC_MS);
    t.press(key('escape'));
    expect(t.draft()).toBe('');
    expect(t.interrupts()).toBe(0);
    t.press(key('up'));
    expect(t.draft()).toBe('draft text');
  });

  it('Ctrl+R searches back as the query is typed, again further back, and Enter puts the match in the draft', () => {
    const t = setup(['git status', 'make test', 'git log --oneline']);
    t.press(key('r', { ctrl: true }));
    expect(t.keys.searching).toBe(true);
    for (const c of 'git') t.press(text(c));
    expect(t.side.getState().search?.match?.text).toBe('git log --oneline');
    t.press(key('r', { ctrl: true }));
    expect(t.side.getState().search?.match?.text).toBe('git status');
    // Nothing older: the match stays.
    t.press(key('r', { ctrl: true }));
    expect(t.side.getState().search?.match?.text).toBe('git status');
    t.press(key('enter'));
    expect(t.keys.searching).toBe(false);
    expect(t.draft()).toBe('git status');
  });

  it('Ctrl+R then Esc (or Ctrl+C) leaves the draft as it was; a query with no match says so', () => {
    const t = setup(['alpha']);
    t.composer.setState({ draft: 'mine', cursor: 4 });
    t.press(key('r', { ctrl: true }));
    t.press(text('zzz'));
    expect(t.side.getState().search).toEqual({ query: 'zzz', match: undefined });
    t.press(key('backspace'));
    t.press(key('escape'));
    expect(t.keys.searching).toBe(false);
    expect(t.draft()).toBe('mine');
    t.press(key('r', { ctrl: true }));
    t.press(key('c', { ctrl: true }));
    expect(t.keys.searching).toBe(false);
    expect(t.interrupts()).toBe(0);
  });
});
