import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { CompletionState } from '../commands/slashCompletion.ts';
import { overflowing, renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { CompletionList, completionRows } from './CompletionList.tsx';

const ITEMS = [
  { text: '/help', display: '/help', meta: 'list the commands' },
  { text: '/model', display: '/model', meta: 'switch the model for this session, from the next turn' },
  { text: '/yolo', display: '/yolo', meta: 'toggle yolo: run dangerous commands without asking' },
];
const listStore = (state: Partial<CompletionState> = {}) =>
  createStore<CompletionState | undefined>(() => ({ kind: 'command', text: '/', items: ITEMS, replaceFrom: 0, selected: 0, moved: false, ...state }));

describe('CompletionList', () => {
  it('lists each command in a column, its description after it, the selected one marked in cyan', () => {
    const store = listStore({ selected: 1 });
    expect(renderRows(<CompletionList store={store} width={80} maxRows={8} />, 80)).toEqual([
      '  /help   list the commands',
      '› /model  switch the model for this session, from the next turn',
      '  /yolo   toggle yolo: run dangerous commands without asking',
    ]);
    const styled = renderStyled(<CompletionList store={store} width={80} maxRows={8} />, 80);
    expect(stylesAt(styled, '› /model')).toEqual(['bold', 'cyan']);
    expect(stylesAt(styled, 'list the commands')).toEqual(['dim']);
  });

  it('cuts the descriptions at 40 columns, one row per command', () => {
    const rows = renderRows(<CompletionList store={listStore()} width={40} maxRows={8} />, 40);
    expect(rows).toEqual(['› /help   list the commands', '  /model  switch the model for this ses…', '  /yolo   toggle yolo: run dangerous co…']);
    expect(overflowing(rows, 40)).toEqual([]);
  });

  it('shows a window of maxRows that keeps the selection in view, and nothing when closed', () => {
    const store = listStore({ selected: 2 });
    expect(renderRows(<CompletionList store={store} width={80} maxRows={2} />, 80).map((row) => row.slice(0, 9))).toEqual(['  /model ', '› /yolo  ']);
    expect(completionRows(store.getState(), 2)).toBe(2);
    expect(renderRows(<CompletionList store={createStore<CompletionState | undefined>(() => undefined)} width={80} maxRows={8} />, 80)).toEqual(['']);
  });

  it('sizes the name column by display width, so a CJK or emoji name is not cut', () => {
    const store = listStore({ items: [ITEMS[0]!, { text: '/翻訳モード', display: '/翻訳モード', meta: 'translate' }, { text: '/🚀', display: '/🚀ship', meta: 'deploy' }] });
    expect(renderRows(<CompletionList store={store} width={80} maxRows={8} />, 80)).toEqual([
      '› /help        list the commands',
      '  /翻訳モード  translate',
      '  /🚀ship      deploy',
    ]);
  });
});
