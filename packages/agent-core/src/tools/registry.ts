import type { ToolSchema } from '../providers/types.ts';
import { toolSchema, type ToolContext, type ToolDefinition, type ToolOutcome } from './types.ts';

/** Tool errors carry this prefix so the model can tell them from output. */
export const TOOL_ERROR_PREFIX = '[TOOL_ERROR]';

export class ToolRegistry {
  private readonly tools = new Map<string, ToolDefinition>();

  register(tool: ToolDefinition): void {
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) {
      throw new Error(`Tool name "${tool.name}" must be 1-64 letters, digits, "_" or "-"`);
    }
    const existing = this.tools.get(tool.name);
    if (existing) {
      throw new Error(`Tool "${tool.name}" is already registered by toolset "${existing.toolset}"`);
    }
    this.tools.set(tool.name, tool);
  }

  get(name: string): ToolDefinition | undefined {
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  schemas(): ToolSchema[] {
    return [...this.tools.values()].map(toolSchema);
  }

  /** `{toolset: [tool names]}` for `session.info`. */
  byToolset(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const tool of this.tools.values()) (out[tool.toolset] ??= []).push(tool.name);
    return out;
  }

  preview(name: string, rawArgs: string): string {
    const tool = this.tools.get(name);
    const args = parseArgs(rawArgs);
    if (tool?.preview && args.ok) {
      try {
        return oneLine(tool.preview(args.value));
      } catch {
        // A preview is cosmetic; fall through to the raw arguments.
      }
    }
    return oneLine(rawArgs);
  }

  /**
   * Runs one call as the model wrote it. Never throws for the model's mistakes or the tool's:
   * those become results the model can read. Throws only the abort reason when interrupted.
   */
  async run(name: string, rawArgs: string, context: ToolContext): Promise<ToolOutcome> {
    const tool = this.tools.get(name);
    if (!tool) {
      const error = `Unknown tool "${name}". Available tools: ${this.names().join(', ') || 'none'}.`;
      return { result: `${TOOL_ERROR_PREFIX} ${error}`, error };
    }
    const args = parseArgs(rawArgs);
    if (!args.ok) {
      const error = `The arguments for ${name} are not valid JSON (${args.error}). Send a JSON object matching the schema.`;
      return { result: `${TOOL_ERROR_PREFIX} ${error}`, error };
    }
    try {
      const result = await tool.handler(args.value, context);
      return { result };
    } catch (err) {
      if (context.signal.aborted) throw context.signal.reason ?? err;
      const error = err instanceof Error ? err.message : String(err);
      return { result: `${TOOL_ERROR_PREFIX} ${error}`, error };
    }
  }
}

function parseArgs(raw: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(raw);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { ok: false, error: 'expected an object' };
    }
    return { ok: true, value: value as Record<string, unknown> };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}
