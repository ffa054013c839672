import { clarifyTool } from './clarify.ts';
import { memoryTool } from './memory.ts';
import { patchTool } from './patch.ts';
import { processTool } from './processTool.ts';
import { readFileTool } from './readFile.ts';
import type { ToolRegistry } from './registry.ts';
import { searchFilesTool } from './searchFiles.ts';
import { sessionSearchTool } from './sessionSearch.ts';
import { skillsListTool } from './skillsList.ts';
import { skillViewTool } from './skillView.ts';
import { terminalTool } from './terminal.ts';
import { todoTool } from './todo.ts';
import type { ToolDefinition } from './types.ts';
import { writeFileTool } from './writeFile.ts';

export const BUILTIN_TOOLS: readonly ToolDefinition[] = [
  terminalTool,
  processTool,
  readFileTool,
  writeFileTool,
  patchTool,
  searchFilesTool,
  todoTool,
  memoryTool,
  clarifyTool,
  sessionSearchTool,
  skillsListTool,
  skillViewTool,
];

/** Registers every built-in tool; call before plugins register theirs. */
export function registerBuiltinTools(registry: ToolRegistry): void {
  for (const tool of BUILTIN_TOOLS) registry.register(tool);
}
