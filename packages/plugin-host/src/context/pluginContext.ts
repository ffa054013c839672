import fs from 'node:fs';
import path from 'node:path';
import { configValue, contextEngineProblem, HOOK_NAMES, MIDDLEWARE_KINDS, type Logger, type ToolContext, type ToolDefinition, type ToolRegistry } from '@hermes/agent-core';
import { abandonCalls, inPlugin, outsidePlugins } from '../containment/pluginScope.ts';
import { ABORTED, abortError, untilAborted } from '../dispatch/untilAborted.ts';
import type { RequiredEnv } from '../discovery/manifest.ts';
import { appendEntry, removeTool, type Callback, type PluginLedger, type Registrations } from './registrations.ts';

/** What `registerTool` accepts (PLUGINS.md): `schema` is an OpenAI function schema. */
export interface PluginToolSpec {
  name: string;
  toolset: string;
  schema: Record<string, unknown>;
  handler: (args: Record<string, unknown>, ctx: ToolContext) => unknown;
  checkFn?: () => boolean | string;
  requiresEnv?: string[];
  description?: string;
  emoji?: string;
  override?: boolean;
}

/** Host services a plugin reaches through its context. */
export interface HostCallbacks {
  injectMessage?: (content: string, role: string) => unknown;
  dispatchTool?: (name: string, args: Record<string, unknown>) => Promise<string> | string;
}

export interface ContextDeps {
  plugin: string;
  dir: string;
  ledger: PluginLedger;
  registrations: Registrations;
  tools: ToolRegistry;
  builtinTools: ReadonlySet<string>;
  builtinCommands: ReadonlySet<string>;
  allowToolOverride: boolean;
  /** `plugins.entries.<name>.settings` of config.yaml (a mapping; empty when not set). */
  settings: Record<string, unknown>;
  /** Its `requires_env` entries that are set neither in the environment nor in `.env`. */
  missingEnv: RequiredEnv[];
  logger: Logger;
  callbacks: HostCallbacks;
}

export function normalizeCommandName(name: string): string {
  return name.trim().toLowerCase().replace(/^\/+/, '').replace(/\s+/g, '-');
}

function functionSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const inner = schema.function;
  return inner && typeof inner === 'object' ? (inner as Record<string, unknown>) : schema;
}

function requireFunction(value: unknown, what: string): void {
  if (typeof value !== 'function') throw new TypeError(`${what} must be a function`);
}

/** The object handed to `register(ctx)`: every registration is tracked in the plugin's ledger. */
export class PluginContext {
  constructor(private readonly deps: ContextDeps) {}

  get name(): string {
    return this.deps.plugin;
  }

  get logger(): Logger {
    return this.deps.logger;
  }

  /** `plugins.entries.<name>.settings` from config.yaml, as the user wrote it (a copy: the plugin cannot change the config). */
  get settings(): Record<string, unknown> {
    return structuredClone(this.deps.settings);
  }

  /** Hermes's `get_config`: a dotted key under the plugin's settings, or `fallback` when it is not set. */
  getConfig(key: string, fallback?: unknown): unknown {
    const value = configValue(this.deps.settings, key);
    return value === undefined ? fallback : structuredClone(value);
  }

  /** The manifest's `requires_env` entries that are set nowhere: the plugin may degrade or refuse (throw). */
  get missingEnv(): RequiredEnv[] {
    return this.deps.missingEnv.map((m) => ({ ...m }));
  }

  /** After a plugin was given up on (register() timed out), its late registrations are refused. */
  private assertOpen(): void {
    if (this.deps.ledger.closed) throw new Error(`plugin ${this.deps.plugin}: registration after the plugin was disabled (${this.deps.ledger.closed})`);
  }

  private refuse(message: string): false {
    const text = `plugin ${this.deps.plugin}: ${message}`;
    this.deps.logger.warn(text);
    this.deps.ledger.warnings.push(message);
    return false;
  }

  /** Returns false when refused (shadowing, name taken); throws for a malformed definition. */
  registerTool(spec: PluginToolSpec): boolean {
    this.assertOpen();
    const { tools, builtinTools, ledger } = this.deps;
    const schema = functionSchema(spec.schema ?? {});
    requireFunction(spec.handler, `registerTool("${spec.name}"): handler`);
    const definition: ToolDefinition = {
      name: spec.name,
      toolset: spec.toolset,
      description: spec.description ?? (typeof schema.description === 'string' ? schema.description : ''),
      parameters: (schema.parameters as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} },
      handler: async (args, ctx) => {
        const running = Promise.resolve().then(() => inPlugin(this.deps.plugin, `tool ${spec.name}`, () => spec.handler(args, ctx)));
        // A handler that ignores its abort signal must not keep an interrupted turn running.
        const result = await untilAborted(running, ctx.signal);
        if (result === ABORTED) {
          abandonCalls(this.deps.plugin, `tool ${spec.name}`);
          throw abortError(ctx.signal);
        }
        return typeof result === 'string' ? result : JSON.stringify(result);
      },
      ...(spec.checkFn ? { checkFn: spec.checkFn } : {}),
      ...(spec.requiresEnv ? { requiresEnv: spec.requiresEnv } : {}),
    };
    const previous = tools.get(spec.name);
    if (previous) {
      if (!builtinTools.has(spec.name)) return this.refuse(`tool "${spec.name}" is already registered by another plugin`);
      if (!spec.override) return this.refuse(`tool "${spec.name}" would shadow a built-in tool; pass override: true to replace it`);
      if (!this.deps.allowToolOverride) {
        return this.refuse(`tool "${spec.name}" may not replace the built-in: set plugins.entries.${this.deps.plugin}.allow_tool_override: true`);
      }
    }
    tools.register(definition, { allowOverride: Boolean(previous) });
    ledger.counts.tools += 1;
    ledger.undo.push(() => removeTool(tools, spec.name, previous));
    return true;
  }

  registerHook(name: string, callback: Callback): void {
    this.assertOpen();
    requireFunction(callback, `registerHook("${name}"): callback`);
    if (!(HOOK_NAMES as readonly string[]).includes(name)) {
      this.deps.logger.warn(`plugin ${this.deps.plugin}: unknown hook "${name}" (kept for forward compatibility)`);
    }
    this.deps.ledger.undo.push(appendEntry(this.deps.registrations.hooks, name, { plugin: this.deps.plugin, callback }));
    this.deps.ledger.counts.hooks += 1;
  }

  registerMiddleware(kind: string, callback: Callback): void {
    this.assertOpen();
    requireFunction(callback, `registerMiddleware("${kind}"): callback`);
    if (!(MIDDLEWARE_KINDS as readonly string[]).includes(kind)) {
      this.deps.logger.warn(`plugin ${this.deps.plugin}: unknown middleware kind "${kind}" (kept, never called)`);
    }
    this.deps.ledger.undo.push(appendEntry(this.deps.registrations.middleware, kind, { plugin: this.deps.plugin, callback }));
    this.deps.ledger.counts.middleware += 1;
  }

  registerCommand(name: string, handler: (rawArgs: string) => unknown, description?: string, argsHint?: string): boolean {
    this.assertOpen();
    requireFunction(handler, `registerCommand("${name}"): handler`);
    const normalized = normalizeCommandName(String(name ?? ''));
    const { commands } = this.deps.registrations;
    if (!normalized) return this.refuse('a slash command needs a non-empty name');
    if (this.deps.builtinCommands.has(normalized)) return this.refuse(`slash command /${normalized} conflicts with a built-in command`);
    const taken = commands.get(normalized);
    if (taken) return this.refuse(`slash command /${normalized} conflicts with the one of plugin ${taken.plugin}`);
    commands.set(normalized, {
      name: normalized,
      plugin: this.deps.plugin,
      handler: (rawArgs: string) => inPlugin(this.deps.plugin, `/${normalized} command`, () => handler(rawArgs)),
      description: description?.trim() || 'Plugin command',
      ...(argsHint?.trim() ? { argsHint: argsHint.trim() } : {}),
    });
    this.deps.ledger.undo.push(() => commands.delete(normalized));
    this.deps.ledger.counts.commands += 1;
    return true;
  }

  registerCliCommand(name: string, command: { help: string; handler: (...args: unknown[]) => unknown }): boolean {
    this.assertOpen();
    requireFunction(command?.handler, `registerCliCommand("${name}"): handler`);
    const normalized = normalizeCommandName(String(name ?? ''));
    const { cliCommands } = this.deps.registrations;
    if (!normalized) return this.refuse('a CLI command needs a non-empty name');
    const taken = cliCommands.get(normalized);
    if (taken) return this.refuse(`CLI command "${normalized}" is already registered by plugin ${taken.plugin}`);
    cliCommands.set(normalized, { name: normalized, plugin: this.deps.plugin, help: command.help ?? '', handler: (...args: unknown[]) => inPlugin(this.deps.plugin, `hermes ${normalized} command`, () => command.handler(...args)) });
    this.deps.ledger.undo.push(() => cliCommands.delete(normalized));
    return true;
  }

  registerContextEngine(engine: unknown): boolean {
    this.assertOpen();
    const registrations = this.deps.registrations;
    const problem = contextEngineProblem(engine);
    if (problem) return this.refuse(`context engine refused: ${problem}`);
    if (registrations.contextEngine) {
      return this.refuse(`a context engine is already registered by plugin ${registrations.contextEngine.plugin}; this one is ignored`);
    }
    // Its methods run under the plugin's name, like every other plugin callback.
    const plugin = this.deps.plugin;
    const named = new Proxy(engine as object, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => inPlugin(plugin, `context engine ${String(key)}`, () => (value as (...a: unknown[]) => unknown).apply(target, args));
      },
    });
    const slot = { plugin, engine: named as NonNullable<Registrations['contextEngine']>['engine'] };
    registrations.contextEngine = slot;
    this.deps.ledger.undo.push(() => {
      if (registrations.contextEngine === slot) registrations.contextEngine = null;
    });
    return true;
  }

  /** Throws for a bad name or a missing SKILL.md, as a plugin author's mistake. */
  registerSkill(name: string, skillPath: string, description?: string): void {
    this.assertOpen();
    if (typeof name !== 'string' || !/^[A-Za-z0-9_-]+$/.test(name)) {
      throw new Error(`registerSkill: "${String(name)}" is not a valid skill name (letters, digits, "_" and "-"; no ":")`);
    }
    const resolved = path.resolve(this.deps.dir, skillPath);
    const file = fs.existsSync(resolved) && fs.statSync(resolved).isDirectory() ? path.join(resolved, 'SKILL.md') : resolved;
    if (!fs.existsSync(file)) throw new Error(`registerSkill("${name}"): SKILL.md not found at ${file}`);
    const qualified = `${this.deps.plugin}:${name}`;
    const { skills } = this.deps.registrations;
    skills.set(qualified, { name: qualified, plugin: this.deps.plugin, path: file, ...(description ? { description } : {}) });
    this.deps.ledger.undo.push(() => skills.delete(qualified));
  }

  injectMessage(content: string, role = 'user'): unknown {
    const inject = this.deps.callbacks.injectMessage;
    if (!inject) throw new Error('injectMessage: no active session to inject into');
    // The turn it may start is the core's work, not this plugin's (its crash or exit is not the plugin's).
    return outsidePlugins(() => inject(content, role));
  }

  async dispatchTool(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const dispatch = this.deps.callbacks.dispatchTool;
    if (!dispatch) throw new Error('dispatchTool: tool dispatch is not available in this host');
    return dispatch(name, args);
  }
}
