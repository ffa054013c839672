import type { ToolSchema } from '../providers/types.ts';

export interface ToolContext {
  cwd: string;
  sessionId: string;
  /** Aborted when the user interrupts the turn; long-running tools must stop on it. */
  signal: AbortSignal;
  /** Live output for the UI (e.g. the last lines of a running command). */
  progress?: (preview: string) => void;
}

export interface ToolDefinition {
  name: string;
  toolset: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  handler: (args: Record<string, unknown>, context: ToolContext) => string | Promise<string>;
  /** A one-line preview of a call for the UI, e.g. the path or the command. */
  preview?: (args: Record<string, unknown>) => string;
}

export interface ToolOutcome {
  /** What the model sees. */
  result: string;
  /** Set when the call failed; `result` then carries the error text for the model. */
  error?: string;
}

export function toolSchema(tool: ToolDefinition): ToolSchema {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}
