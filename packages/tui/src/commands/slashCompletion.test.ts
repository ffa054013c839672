import type { CompletionItem } from '@hermes/rpc-server/protocol';
import { describe, expect, it } from 'vitest';
import type { Key } from '../input/keyParser.ts';
import { applyCompletion, applyCompletionKey, completionQuery, visibleWindow, type CompletionState } from './slashCompletion.ts';

const key = (name: string, modifiers: Partial<{ ctrl: boolean; meta: boolean; shift: boolean }> = {}): Key => ({
  type: 'key', name, ctrl: false, meta: false, shift: false, ...modifiers,
});
const item = (name: string): CompletionItem => ({ text: `/${name}`, display: `/${name}`, meta: `about ${name}` });
const word = (text: string): CompletionItem => ({ text, display: text, meta: '' });
const at = (draft: string) => ({ draft, cursor: draft.length });
const list = (names: string[], selected = 0, text = '/'): CompletionState => ({
  kind: 'command', text, items: names.map(item), replaceFrom: 0, selected, moved: false,
});

describe('slash completion', () => {
  it('reads the command word of a one-line draft with the cursor at its end', () => {
    expect(completionQuery(at('/he'))).toEqual({ kind: 'command', text: '/he' });
    expect(completionQuery(at('/'))).toEqual({ kind: 'command', text: '/' });
    expect(completionQuery(at('hello /he'))).toBeUndefined();
    expect(completionQuery(at('/he\nmore'))).toBeUndefined();
    expect(completionQuery({ draft: '/help', cursor: 2 })).toBeUndefined();
    expect(completionQuery(at(''))).toBeUndefined();
  });

  it('reads the argument of /resume (the rest of the line), /model, /help and both words of /details', () => {
    expect(completionQuery(at('/resume my ti'))).toMatchObject({ kind: 'argument', command: 'resume', word: 'my ti', replaceFrom: 8 });
    expect(completionQuery(at('/model gp'))).toMatchObject({ kind: 'argument', command: 'model', word: 'gp', replaceFrom: 7 });
    expect(completionQuery(at('/help '))).toMatchObject({ kind: 'argument', command: 'help', word: '', replaceFrom: 6 });
    expect(completionQuery(at('/details tools col'))).toMatchObject({ kind: 'argument', word: 'col', position: 1, previousWord: 'tools' });
    expect(completionQuery(at('/model a b'))).toBeUndefined();
    expect(completionQuery(at('/status x'))).toBeUndefined();
  });

  it('reads an @path word anywhere in a message', () => {
    expect(completionQuery(at('look at @src/ap'))).toEqual({ kind: 'path', text: 'look at @src/ap', word: '@src/ap', replaceFrom: 8 });
    expect(completionQuery(at('@'))).toMatchObject({ kind: 'path', word: '@', replaceFrom: 0 });
    expect(completionQuery(at('mail a@b x'))).toBeUndefined();
  });

  it('moves the selection with ↑/↓, wrapping at both ends', () => {
    const state = list(['help', 'history', 'new']);
    const up = applyCompletionKey(state, '/', key('up'));
    expect(up).toEqual({ kind: 'select', state: { ...state, selected: 2, moved: true } });
    const down = applyCompletionKey({ ...state, selected: 2 }, '/', key('down'));
    expect(down).toEqual({ kind: 'select', state: { ...state, selected: 0, moved: true } });
  });

  it('Tab writes the selected item from replace_from; Esc closes; other keys go to the composer', () => {
    const state = list(['help', 'history'], 1, '/h');
    expect(applyCompletionKey(state, '/h', key('tab'))).toEqual({ kind: 'apply', composer: { draft: '/history ', cursor: 9 } });
    expect(applyCompletionKey(state, '/h', key('escape'))).toEqual({ kind: 'close' });
    expect(applyCompletionKey(state, '/h', { type: 'text', text: 'e' })).toEqual({ kind: 'pass' });
    expect(applyCompletionKey(state, '/h', key('tab', { shift: true }))).toEqual({ kind: 'pass' });
  });

  it('Enter on a command word runs the highlighted command, not the typed prefix', () => {
    expect(applyCompletionKey(list(['status', 'stop'], 0, '/sta'), '/sta', key('enter'))).toEqual({ kind: 'submit', text: '/status' });
    expect(applyCompletionKey(list(['help'], 0, '/help'), '/help', key('enter'))).toEqual({ kind: 'submit', text: '/help' });
    expect(applyCompletionKey(list(['help'], 0, '/he'), '/he', key('enter', { shift: true }))).toEqual({ kind: 'pass' });
  });

  it('Enter on an argument runs the value chosen with ↑/↓, else what is typed', () => {
    const args: CompletionState = { kind: 'argument', text: '/help ', items: [word('help'), word('model')], replaceFrom: 6, selected: 0, moved: false };
    expect(applyCompletionKey(args, '/help ', key('enter'))).toEqual({ kind: 'pass' });
    expect(applyCompletionKey({ ...args, selected: 1, moved: true }, '/help ', key('enter'))).toEqual({ kind: 'submit', text: '/help model' });
    const typed: CompletionState = { ...args, text: '/help mo', items: [word('model')], replaceFrom: 6 };
    expect(applyCompletionKey(typed, '/help mo', key('enter'))).toEqual({ kind: 'pass' });
  });

  it('Enter on a path completes it in place; a list for other text does not act', () => {
    const paths: CompletionState = { kind: 'path', text: 'see @sr', items: [word('@src/')], replaceFrom: 4, selected: 0, moved: false };
    expect(applyCompletionKey(paths, 'see @sr', key('enter'))).toEqual({ kind: 'apply', composer: { draft: 'see @src/', cursor: 9 } });
    expect(applyCompletionKey(paths, 'see @srx', key('tab'))).toEqual({ kind: 'pass' });
    const done: CompletionState = { ...paths, text: 'see @src/', items: [word('@src/')] };
    expect(applyCompletionKey(done, 'see @src/', key('enter'))).toEqual({ kind: 'pass' });
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
