import { TODO_STATUSES, type TodoItem, type TodoPatch } from './todoList.ts';
import type { ToolDefinition } from './types.ts';

function render(todos: TodoItem[]): string {
  const counts = Object.fromEntries(TODO_STATUSES.map((s) => [s, todos.filter((t) => t.status === s).length]));
  return JSON.stringify({ todos, summary: { total: todos.length, ...counts } });
}

export const todoTool: ToolDefinition = {
  name: 'todo',
  toolset: 'todo',
  description:
    'Keep a task list for multi-step work. Call with no arguments to read it. Pass todos to write it: ' +
    'merge false (default) replaces the list, merge true updates items by id and appends new ones. ' +
    'Keep one item in_progress at a time and mark items completed as soon as they are done.',
  parameters: {
    type: 'object',
    properties: {
      todos: {
        type: 'array',
        description: 'Items to write',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string', description: 'Stable identifier' },
            content: { type: 'string', description: 'What to do' },
            status: { type: 'string', enum: [...TODO_STATUSES] },
          },
          required: ['id'],
        },
      },
      merge: { type: 'boolean', description: 'Update by id instead of replacing the list (default false)' },
    },
  },
  preview: (args) => (Array.isArray(args.todos) ? `${args.todos.length} item${args.todos.length === 1 ? '' : 's'}` : 'read'),
  handler(args, context) {
    if (args.todos === undefined || args.todos === null) return render(context.todos.read());
    if (!Array.isArray(args.todos)) throw new Error('"todos" must be a list of {id, content, status} items');
    return render(context.todos.write(args.todos as TodoPatch[], args.merge === true));
  },
};
