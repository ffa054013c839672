import type { ApprovalSubject } from '../approvals/types.ts';
import type { ProcessRegistry } from '../processes/processRegistry.ts';
import type { ToolSchema } from '../providers/types.ts';
import type { SearchOptions, SearchResult } from '../sessions/messageSearch.ts';
import type { SkillCatalog } from '../skills/skillCatalog.ts';
import type { TodoList } from './todoList.ts';

/** Limits that come from config.yaml (`terminal.timeout`, `tool_output.*`). */
export interface ToolSettings {
  /** Seconds a foreground command may run before its process tree is killed. */
  terminalTimeoutS: number;
  /** Caps on one tool result; the middle is cut with a note saying how much. */
  maxBytes: number;
  maxLines: number;
  /**
   * The environment of commands (terminal, background processes, `!cmd`): without provider keys and
   * `.env` variables (see secrets/toolEnvironment.ts). Absent: hermes's own, minus provider keys.
   */
  env?: Record<string, string>;
}

export const DEFAULT_TOOL_SETTINGS: ToolSettings = { terminalTimeoutS: 180, maxBytes: 50_000, maxLines: 2_000 };

export interface ToolContext {
  cwd: string;
  sessionId: string;
  /** HERMES_HOME: where `memories/` lives. */
  home: string;
  /** Aborted when the user interrupts the turn; long-running tools must stop on it. */
  signal: AbortSignal;
  settings: ToolSettings;
  /** Background processes (shared by all sessions; entries are tagged with their session). */
  processes: ProcessRegistry;
  /** This session's todo list. */
  todos: TodoList;
  /** Live output for the UI (e.g. the last lines of a running command). */
  progress?: (preview: string) => void;
  /** Asks the human; absent when nobody can answer (the clarify tool then says so). */
  clarify?: (question: string, choices?: string[]) => Promise<string>;
  /** Search over stored sessions (the session store); absent when there is none. */
  sessions?: SessionSearchPort;
  /** User and plugin skills (skills_list, skill_view); absent when there is none. */
  skills?: SkillCatalog;
}

/** What the session_search tool needs of the session store; SessionStore satisfies it. */
export interface SessionSearchPort {
  searchWithCoverage(query: string, options?: SearchOptions): SearchResult;
}

export type ToolArgs = Record<string, unknown>;

/** What a handler returns: text for the model, optionally a diff for the UI. */
export type ToolReturn = string | { result: string; inlineDiff?: string };

export interface ToolDefinition {
  name: string;
  toolset: string;
  description: string;
  /** JSON Schema of the arguments object (`type: 'object'` with `properties`). */
  parameters: Record<string, unknown>;
  /** Receives the arguments already coerced to the schema. */
  handler: (args: ToolArgs, context: ToolContext) => ToolReturn | Promise<ToolReturn>;
  /** Availability: `true`, or `false`/a reason when the tool cannot work here. Unavailable tools are not offered. */
  checkFn?: () => boolean | string;
  /** Environment variables the tool needs; a missing one makes it unavailable. */
  requiresEnv?: string[];
  /** Touches nothing: may run in parallel with other read-only calls of the same model response. */
  readOnly?: boolean;
  /** A one-line preview of a call for the UI, e.g. the path or the command. */
  preview?: (args: ToolArgs) => string;
  /**
   * What the approval gate must judge before this call runs, computed without side effects;
   * `null` when there is nothing to judge (or the call will fail anyway and say why). Synchronous,
   * so the loop can judge without awaiting; file tools read the current content synchronously.
   */
  approval?: (args: ToolArgs, context: ToolContext) => ApprovalSubject | null;
}

export interface ToolOutcome {
  /** What the model sees. */
  result: string;
  /** Set when the call failed; `result` then carries the error text for the model. */
  error?: string;
  /** A unified diff of a file change, for the UI (`tool.complete.inline_diff`). */
  inlineDiff?: string;
}

export function toolSchema(tool: ToolDefinition): ToolSchema {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}
