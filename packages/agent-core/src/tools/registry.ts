import type { ToolsetDescriptor } from '../contract/tools.ts';
import type { ToolSchema } from '../providers/types.ts';
import { coerceObject } from './coerce.ts';
import { clipOutput } from './outputClip.ts';
import { CORE_TOOLSETS, resolveToolsets } from './toolsets.ts';
import { toolSchema, type ToolArgs, type ToolContext, type ToolDefinition, type ToolOutcome } from './types.ts';
import { ToolDefinitionError, validateDefinition } from './validateDefinition.ts';

/** Tool errors carry this prefix so the model can tell them from output. */
export const TOOL_ERROR_PREFIX = '[TOOL_ERROR]';

export type Prepared = { ok: true; tool: ToolDefinition; args: ToolArgs } | { ok: false; outcome: ToolOutcome };

/** One toolset as `tools.list` shows it. */
/** A toolset as `tools.list` shows it: the contract's ToolsetDescriptor. */
export type ToolsetInfo = ToolsetDescriptor;

export interface RegistryOptions {
  /** Environment that `requiresEnv` is checked against (the process env merged with `$HERMES_HOME/.env`). */
  env?: Record<string, string | undefined>;
}

function failure(error: string): ToolOutcome {
  return { result: `${TOOL_ERROR_PREFIX} ${error}`, error };
}

export class ToolRegistry {
  private readonly tools = new Map<string, ToolDefinition>();
  private readonly descriptions = new Map<string, string>(Object.entries(CORE_TOOLSETS));
  /** Toolsets that exist before they have a tool (an MCP server still connecting): selectable, never "unknown". */
  private readonly declared = new Set<string>();
  private readonly env: Record<string, string | undefined>;
  /** Why a tool that was registered is gone for now (its MCP server is down): told instead of "Unknown tool". */
  private readonly goneReasons = new Map<string, string>();

  constructor(options: RegistryOptions = {}) {
    this.env = options.env ?? process.env;
  }

  /**
   * Removes a tool (a plugin unloading); true when it was registered. With `goneReason` (a tool whose
   * MCP server went down) a call of it is answered with that reason until it is registered again or
   * unregistered without one.
   */
  unregister(name: string, goneReason?: string): boolean {
    if (goneReason === undefined) this.goneReasons.delete(name);
    else this.goneReasons.set(name, goneReason);
    return this.tools.delete(name);
  }

  /** Throws `ToolDefinitionError` for a malformed definition or a name taken by another registration. */
  register(tool: ToolDefinition, options: { allowOverride?: boolean } = {}): void {
    validateDefinition(tool);
    const existing = this.tools.get(tool.name);
    if (existing && !options.allowOverride) {
      throw new ToolDefinitionError(
        `Tool "${tool.name}" from toolset "${tool.toolset}" is already registered by toolset "${existing.toolset}"; ` +
          'pass { allowOverride: true } to replace it',
      );
    }
    this.tools.set(tool.name, tool);
    this.goneReasons.delete(tool.name);
  }

  /** Describes a toolset that is not a core one (e.g. a plugin's), for `tools.list`. */
  describeToolset(name: string, description: string): void {
    this.descriptions.set(name, description);
  }

  /** Makes a toolset known while it may have no tools (an MCP server that is down), with its description. */
  declareToolset(name: string, description: string): void {
    this.declared.add(name);
    this.descriptions.set(name, description);
  }

  /** Undoes declareToolset (the MCP server was removed from the config). */
  forgetToolset(name: string): void {
    this.declared.delete(name);
  }

  get(name: string): ToolDefinition | undefined {
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** Why a tool cannot work here (`checkFn`, `requiresEnv`), or null when it can. */
  unavailableReason(tool: ToolDefinition): string | null {
    const missing = (tool.requiresEnv ?? []).filter((name) => !this.env[name]);
    if (missing.length > 0) return `needs ${missing.join(', ')} in the environment or $HERMES_HOME/.env`;
    if (!tool.checkFn) return null;
    try {
      const verdict = tool.checkFn();
      if (verdict === true) return null;
      return typeof verdict === 'string' && verdict ? verdict : 'not available here';
    } catch (error) {
      return `availability check failed: ${(error as Error).message}`;
    }
  }

  private toolsetNames(): Set<string> {
    return new Set([...Object.keys(CORE_TOOLSETS), ...this.declared, ...[...this.tools.values()].map((t) => t.toolset)]);
  }

  /**
   * The tools to offer the model for a `toolsets` selection (absent: every toolset), without the
   * unavailable ones. `problems` says which selected names are unknown and which tools are unavailable.
   */
  enabledFor(toolsets?: readonly string[]): { tools: ToolDefinition[]; problems: string[] } {
    const selection = resolveToolsets(toolsets, this.toolsetNames());
    const problems = [...selection.problems];
    const tools: ToolDefinition[] = [];
    for (const tool of this.tools.values()) {
      if (!selection.names.has(tool.toolset)) continue;
      const reason = this.unavailableReason(tool);
      if (reason) problems.push(`Tool "${tool.name}" is unavailable: ${reason}`);
      else tools.push(tool);
    }
    return { tools, problems };
  }

  schemas(toolsets?: readonly string[]): ToolSchema[] {
    return this.enabledFor(toolsets).tools.map(toolSchema);
  }

  /** `{toolset: [tool names]}` for `session.info`. */
  byToolset(toolsets?: readonly string[]): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const tool of this.enabledFor(toolsets).tools) (out[tool.toolset] ??= []).push(tool.name);
    return out;
  }

  /** Every toolset for `tools.list`: enabled when selected; `tools` lists its available tools. */
  list(toolsets?: readonly string[]): ToolsetInfo[] {
    const selected = resolveToolsets(toolsets, this.toolsetNames()).names;
    const enabled = new Set(this.enabledFor(undefined).tools.map((t) => t.name));
    return [...this.toolsetNames()].sort().map((name) => ({
      name,
      description: this.descriptions.get(name) ?? `Tools from ${name}`,
      enabled: selected.has(name),
      tools: [...this.tools.values()].filter((t) => t.toolset === name && enabled.has(t.name)).map((t) => t.name),
    }));
  }

  preview(name: string, rawArgs: string): string {
    const tool = this.tools.get(name);
    const args = parseArgs(rawArgs);
    if (tool?.preview && args.ok) {
      try {
        return oneLine(tool.preview(coerceObject(args.value, tool.parameters)));
      } catch {
        // A preview is cosmetic; fall through to the raw arguments.
      }
    }
    return oneLine(rawArgs);
  }

  /**
   * Resolves a call as the model wrote it: the tool (among the selected, available ones) and its
   * arguments coerced to the schema. Failures are outcomes the model can read, never throws.
   */
  prepare(name: string, rawArgs: string, toolsets?: readonly string[]): Prepared {
    const offered = this.enabledFor(toolsets).tools;
    const tool = offered.find((t) => t.name === name);
    if (!tool) {
      const gone = this.tools.has(name) ? undefined : this.goneReasons.get(name);
      if (gone !== undefined) return { ok: false, outcome: failure(gone) };
      const available = offered.map((t) => t.name).join(', ') || 'none';
      return { ok: false, outcome: failure(`Unknown tool "${name}". Available tools: ${available}.`) };
    }
    const parsed = parseArgs(rawArgs);
    if (!parsed.ok) {
      return {
        ok: false,
        outcome: failure(`The arguments for ${name} are not valid JSON (${parsed.error}). Send a JSON object matching the schema.`),
      };
    }
    const args = coerceObject(parsed.value, tool.parameters);
    const required = (tool.parameters.required as string[] | undefined) ?? [];
    const missing = required.filter((key) => args[key] === undefined || args[key] === null);
    if (missing.length > 0) {
      return { ok: false, outcome: failure(`${name} needs the argument${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')}.`) };
    }
    return { ok: true, tool, args };
  }

  /**
   * Runs a prepared call. Never throws for the tool's own failures (they become `[TOOL_ERROR]`
   * results); throws only the abort reason when the user interrupted. Results are capped at
   * `settings.maxBytes`/`maxLines`.
   */
  async execute(tool: ToolDefinition, args: ToolArgs, context: ToolContext): Promise<ToolOutcome> {
    try {
      const returned = await tool.handler(args, context);
      const { result, inlineDiff } = typeof returned === 'string' ? { result: returned, inlineDiff: undefined } : returned;
      const clipped = clipOutput(result, context.settings);
      return inlineDiff ? { result: clipped, inlineDiff } : { result: clipped };
    } catch (err) {
      if (context.signal.aborted) throw context.signal.reason ?? err;
      return failure(err instanceof Error ? err.message : String(err));
    }
  }

  /** `prepare` then `execute`, for callers with no approval step. */
  async run(name: string, rawArgs: string, context: ToolContext, toolsets?: readonly string[]): Promise<ToolOutcome> {
    const prepared = this.prepare(name, rawArgs, toolsets);
    if (!prepared.ok) return prepared.outcome;
    return this.execute(prepared.tool, prepared.args, context);
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
