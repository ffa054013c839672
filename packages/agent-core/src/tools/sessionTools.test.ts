import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerBuiltinTools } from './builtins.ts';
import { NO_HUMAN_ANSWER } from './clarify.ts';
import { ENTRY_DELIMITER, memoryFile } from './memoryStore.ts';
import { ToolRegistry } from './registry.ts';
import { TodoList } from './todoList.ts';
import { testContext } from './toolTestContext.ts';
import type { ToolContext } from './types.ts';

const registry = new ToolRegistry();
registerBuiltinTools(registry);
const call = (name: string, args: Record<string, unknown>, c: ToolContext) => registry.run(name, JSON.stringify(args), c);

describe('todo', () => {
  it('writes, merges by id, notifies listeners with the revision, and reads back with counts', async () => {
    const c = testContext();
    const seen: Array<[number, number]> = [];
    c.todos.onChange((todos, revision) => seen.push([todos.length, revision]));
    await call('todo', { todos: [{ id: '1', content: 'read code', status: 'in_progress' }, { id: '2', content: 'write tests' }] }, c);
    const merged = await call('todo', { merge: true, todos: [{ id: '1', status: 'completed' }, { id: '3', content: 'ship', status: 'pending' }] }, c);
    expect(JSON.parse(merged.result)).toEqual({
      todos: [
        { id: '1', content: 'read code', status: 'completed' },
        { id: '2', content: 'write tests', status: 'pending' },
        { id: '3', content: 'ship', status: 'pending' },
      ],
      summary: { total: 3, pending: 2, in_progress: 0, completed: 1, cancelled: 0 },
    });
    expect(seen).toEqual([[2, 1], [3, 2]]);
    expect((await call('todo', {}, c)).result).toBe(merged.result);
  });

  it('replaces the list without merge, and accepts the list as a JSON string', async () => {
    const c = testContext();
    c.todos.write([{ id: 'old', content: 'old task' }], false);
    const out = await call('todo', { todos: '[{"id":"n","content":"new task","status":"in_progress"}]' }, c);
    expect(JSON.parse(out.result).todos).toEqual([{ id: 'n', content: 'new task', status: 'in_progress' }]);
  });

  it('rejects a bad status or a new item without content, changing nothing', () => {
    const list = new TodoList();
    list.write([{ id: 'a', content: 'x' }], false);
    expect(() => list.write([{ id: 'a', status: 'done' as never }], true)).toThrow(
      'todos[0]: "status" must be one of pending, in_progress, completed, cancelled (found "done")',
    );
    expect(() => list.write([{ id: 'b' }], true)).toThrow('todos[0]: a new item needs "content" (no item has id "b")');
    expect(list.read()).toEqual([{ id: 'a', content: 'x', status: 'pending' }]);
    expect(list.revision).toBe(1);
  });
});

describe('memory', () => {
  it('adds, replaces and removes entries in $HERMES_HOME/memories, reporting usage', async () => {
    const c = testContext();
    expect((await call('memory', { action: 'add', content: 'Project uses pnpm' }, c)).result).toBe('Saved. MEMORY.md: 17/2200 characters, 1 entry');
    await call('memory', { action: 'add', content: 'Tests run with vitest' }, c);
    expect(fs.readFileSync(memoryFile(c.home, 'memory'), 'utf8')).toBe(`Project uses pnpm${ENTRY_DELIMITER}Tests run with vitest\n`);
    expect((await call('memory', { action: 'replace', old_text: 'pnpm', content: 'Project uses npm workspaces' }, c)).result).toMatch(/^Replaced\./);
    expect((await call('memory', { action: 'remove', old_text: 'vitest' }, c)).result).toBe('Removed. MEMORY.md: 27/2200 characters, 1 entry');
    expect((await call('memory', { action: 'read' }, c)).result).toBe('MEMORY.md: 27/2200 characters, 1 entry\nProject uses npm workspaces');
    await call('memory', { action: 'add', target: 'user', content: 'Prefers short answers' }, c);
    expect(fs.readFileSync(path.join(c.home, 'memories', 'USER.md'), 'utf8')).toBe('Prefers short answers\n');
  });

  it('refuses a write over the limit, saying the current usage', async () => {
    const c = testContext();
    await call('memory', { action: 'add', target: 'user', content: 'x'.repeat(1300) }, c);
    const out = await call('memory', { action: 'add', target: 'user', content: 'y'.repeat(100) }, c);
    expect(out.error).toBe(
      'USER.md would hold 1403 of its 1375 characters (1300 used now; this entry has 100). Remove or replace entries first, or say it in fewer words.',
    );
    expect(fs.readFileSync(memoryFile(c.home, 'user'), 'utf8')).toBe(`${'x'.repeat(1300)}\n`);
  });

  it('asks for a unique old_text when replacing or removing', async () => {
    const c = testContext();
    await call('memory', { action: 'add', content: 'repo A uses tabs' }, c);
    await call('memory', { action: 'add', content: 'repo B uses tabs' }, c);
    expect((await call('memory', { action: 'remove', old_text: 'tabs' }, c)).error).toBe('2 entries contain "tabs"; quote more of the one you mean.');
    expect((await call('memory', { action: 'remove', old_text: 'spaces' }, c)).error).toMatch(/^No entry contains "spaces"/);
  });
});

describe('clarify', () => {
  it('asks the human through the context and returns the answer', async () => {
    const asked: unknown[] = [];
    const c = testContext({
      clarify: async (question, choices) => {
        asked.push([question, choices]);
        return 'Postgres';
      },
    });
    const out = await call('clarify', { question: 'Which database?', choices: ['Postgres', 'SQLite'] }, c);
    expect(out.result).toBe('The user answered: Postgres');
    expect(asked).toEqual([['Which database?', ['Postgres', 'SQLite']]]);
  });

  it('says that no human is available when nobody can answer', async () => {
    expect((await call('clarify', { question: 'Which database?' }, testContext())).result).toBe(NO_HUMAN_ANSWER);
  });
});
