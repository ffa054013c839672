import { describe, expect, it } from 'vitest';
import { reduce } from '../state/reducer.ts';
import type { TodoItem } from '../state/viewState.ts';
import { overflowing, renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { viewState } from '../testing/viewFixtures.ts';
import { TodoPanel, todoPanelRows, todoPanelVisible } from './TodoPanel.tsx';

const todos: TodoItem[] = [
  { id: '1', content: 'read the parser', status: 'completed' },
  { id: '2', content: 'write the failing test', status: 'in_progress' },
  { id: '3', content: 'fix the off-by-one', status: 'pending' },
  { id: '4', content: 'try the old approach', status: 'cancelled' },
];

describe('TodoPanel', () => {
  it('draws the list as a checklist, open items first, never as JSON', () => {
    const rows = renderRows(<TodoPanel todos={todos} width={60} />, 60);
    expect(rows).toEqual(['', 'todo · 1/4 done', '  ▸ write the failing test', '  ☐ fix the off-by-one', '  ☑ read the parser', '  ☒ try the old approach']);
    expect(rows.join('\n')).not.toMatch(/[{}"]/);
    expect(todoPanelRows(todos)).toBe(rows.length);
  });

  it('dims finished items and colours the one in progress', () => {
    const styled = renderStyled(<TodoPanel todos={todos} width={60} />, 60);
    expect(stylesAt(styled, 'read the parser')).toEqual(['dim', 'green']);
    expect(stylesAt(styled, 'write the failing test')).toEqual(['yellow']);
  });

  it('counts what does not fit and cuts long items to the width', () => {
    const many: TodoItem[] = Array.from({ length: 11 }, (_, i) => ({ id: `${i}`, content: `task ${i + 1} ${'word '.repeat(20)}`, status: 'pending' }));
    const rows = renderRows(<TodoPanel todos={many} width={40} />, 40);
    expect(rows.at(-1)).toBe('  … 3 more');
    expect(rows).toHaveLength(todoPanelRows(many));
    expect(overflowing(rows, 40)).toEqual([]);
  });

  it('is shown while an item is open, and follows todo.updated', () => {
    expect(todoPanelVisible(todos)).toBe(true);
    expect(todoPanelVisible(todos.map((todo) => ({ ...todo, status: 'completed' as const })))).toBe(false);
    const state = reduce(viewState(), { type: 'todo.updated', session_id: 's1', payload: { todos, revision: 1 } });
    expect(state.todos).toEqual(todos);
  });
});
