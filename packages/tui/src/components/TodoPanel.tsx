import { Box, Text } from 'ink';
import { displayText } from '../layout/visibleText.ts';
import type { TodoItem } from '../state/viewState.ts';

/** Items listed at once; the rest are counted. */
const TODO_PANEL_ITEMS = 8;

const MARK: Record<TodoItem['status'], { symbol: string; color?: string }> = {
  pending: { symbol: '☐' },
  in_progress: { symbol: '▸', color: 'yellow' },
  completed: { symbol: '☑', color: 'green' },
  cancelled: { symbol: '☒', color: 'gray' },
};

/** The todo list is shown while any item is still open; a finished list is out of the way. */
export function todoPanelVisible(todos: readonly TodoItem[] | undefined): todos is TodoItem[] {
  return Boolean(todos?.some((todo) => todo.status === 'pending' || todo.status === 'in_progress'));
}

/** Rows the panel takes (its title and items, the count line), for the height budget. */
export function todoPanelRows(todos: readonly TodoItem[] | undefined): number {
  if (!todoPanelVisible(todos)) return 0;
  return 2 + Math.min(todos.length, TODO_PANEL_ITEMS) + (todos.length > TODO_PANEL_ITEMS ? 1 : 0);
}

/**
 * The model's todo list as a small checklist: the item in progress first in view (open items before
 * finished ones), one row each, cut to the width.
 */
export function TodoPanel({ todos, width }: { todos: readonly TodoItem[]; width: number }) {
  const done = todos.filter((todo) => todo.status === 'completed').length;
  const open = todos.filter((todo) => todo.status === 'in_progress' || todo.status === 'pending');
  const closed = todos.filter((todo) => todo.status === 'completed' || todo.status === 'cancelled');
  const shown = [...open, ...closed].slice(0, TODO_PANEL_ITEMS);
  const more = todos.length - shown.length;
  return (
    <Box flexDirection="column" marginTop={1} width={width}>
      <Text dimColor>
        todo · {done}/{todos.length} done
      </Text>
      {shown.map((todo) => (
        <Text key={todo.id} wrap="truncate-end" color={MARK[todo.status].color} dimColor={todo.status === 'completed' || todo.status === 'cancelled'} strikethrough={todo.status === 'cancelled'}>
          {'  '}
          {MARK[todo.status].symbol} {displayText(todo.content).replace(/\s+/g, ' ').trim()}
        </Text>
      ))}
      {more > 0 ? <Text dimColor>  … {more} more</Text> : null}
    </Box>
  );
}
