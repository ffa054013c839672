import type { CompletionItem } from '@hermes/rpc-server/protocol';
import { describe, expect, it } from 'vitest';
import type { Key } from '../input/keyParser.ts';
import { acceptAnswer, applyCompletion, applyCompletionKey, completionQuery, visibleWindow, type CompletionState } from './slashCompletion.ts';

const key = (name: string, modifiers: Partial<{ ctrl: boolean; meta: boolean; shift: boolean }> = {}): Key => ({
  type: 'key', name, ctrl: false, meta: false, shift: false, ...modifiers,
});
const item = (name: string): CompletionItem => ({ text: `/${name}`, display: `/${name}`, meta: `about ${name}` });
const at = (draft: string) => ({ draft, cursor: draft.length });
const list = (names: string[], selected = 0, text = '/'): CompletionState => ({ text, items: names.map(item), replaceFrom: 0, selected });

describe('slash completion', () => {
  it('asks only for a one-line draft that starts with / and has the cursor at its end', () => {
    expect(completionQuery(at('/he'))).toBe('/he');
    expect(completionQuery(at('/'))).toBe('/');
    expect(completionQuery(at('hello /he'))).toBeUndefined();
    expect(completionQuery(at('/he\nmore'))).toBeUndefined();
    expect(completionQuery({ draft: '/help', cursor: 2 })).toBeUndefined();
    expect(completionQuery(at(''))).toBeUndefined();
  });

  it('drops an answer for text the user has typed past, and closes on an empty answer', () => {
    const answer = { text: '/he', items: [item('help')], replace_from: 0 };
    expect(acceptAnswer(at('/he'), answer, undefined)).toEqual({ text: '/he', items: [item('help')], replaceFrom: 0, selected: 0 });
    expect(acceptAnswer(at('/hel'), answer, undefined)).toBeUndefined();
    expect(acceptAnswer(at('/zz'), { text: '/zz', items: [], replace_from: 0 }, undefined)).toBeUndefined();
  });

  it('keeps the selected command selected when a refined answer still lists it', () => {
    const previous = list(['help', 'history', 'new'], 1, '/h');
    const next = acceptAnswer(at('/hi'), { text: '/hi', items: [item('help'), item('history')], replace_from: 0 }, previous);
    expect(next?.selected).toBe(1);
    const gone = acceptAnswer(at('/he'), { text: '/he', items: [item('help')], replace_from: 0 }, previous);
    expect(gone?.selected).toBe(0);
  });

  it('moves the selection with ↑/↓, wrapping at both ends', () => {
    const state = list(['help', 'history', 'new']);
    const up = applyCompletionKey(state, '/', key('up'));
    expect(up).toEqual({ kind: 'select', state: { ...state, selected: 2 } });
    const down = applyCompletionKey({ ...state, selected: 2 }, '/', key('down'));
    expect(down).toEqual({ kind: 'select', state: { ...state, selected: 0 } });
  });

  it('Tab writes the selected item from replace_from; Esc closes; other keys go to the composer', () => {
    const state = { ...list(['help', 'history'], 1, '/h'), replaceFrom: 0 };
    expect(applyCompletionKey(state, '/h', key('tab'))).toEqual({ kind: 'apply', composer: { draft: '/history ', cursor: 9 } });
    expect(applyCompletionKey(state, '/h', key('escape'))).toEqual({ kind: 'close' });
    expect(applyCompletionKey(state, '/h', key('enter'))).toEqual({ kind: 'pass' });
    expect(applyCompletionKey(state, '/h', { type: 'text', text: 'e' })).toEqual({ kind: 'pass' });
    expect(applyCompletionKey(state, '/h', key('tab', { shift: true }))).toEqual({ kind: 'pass' });
  });

  it('replaces only the part after replace_from (an argument)', () => {
    expect(applyCompletion('/model gp', 7, { text: 'gpt-4o', display: 'gpt-4o', meta: '' })).toEqual({ draft: '/model gpt-4o', cursor: 13 });
  });

  it('shows at most the row budget, scrolled so the selection is visible', () => {
    const names = Array.from({ length: 12 }, (_, i) => `c${i}`);
    expect(visibleWindow(list(names, 0), 8)).toMatchObject({ start: 0 });
    expect(visibleWindow(list(names, 0), 8).items).toHaveLength(8);
    expect(visibleWindow(list(names, 10), 8).start).toBe(3);
    expect(visibleWindow(list(names, 11), 8).start).toBe(4);
    expect(visibleWindow(list(['a', 'b']), 8).items).toHaveLength(2);
  });
});
