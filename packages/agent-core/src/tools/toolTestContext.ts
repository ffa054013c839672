import { ProcessRegistry } from '../processes/processRegistry.ts';
import { tempDir } from '../testing/tempHome.ts';
import { TodoList } from './todoList.ts';
import { DEFAULT_TOOL_SETTINGS, type ToolContext } from './types.ts';

export { tempDir };

/** A complete ToolContext over real directories, for tests; override what the test is about. */
export function testContext(overrides: Partial<ToolContext> = {}): ToolContext {
  const cwd = overrides.cwd ?? tempDir('cwd');
  return {
    cwd,
    sessionId: 's1',
    home: overrides.home ?? tempDir('home'),
    signal: new AbortController().signal,
    settings: { ...DEFAULT_TOOL_SETTINGS },
    processes: new ProcessRegistry(),
    todos: new TodoList(),
    ...overrides,
  };
}
