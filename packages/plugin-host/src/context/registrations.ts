import type { ContextEngine, ToolDefinition, ToolRegistry } from '@hermes/agent-core';

export type Callback = (payload: Record<string, unknown>) => unknown;

export interface HookEntry {
  plugin: string;
  callback: Callback;
}

export interface PluginCommand {
  name: string;
  plugin: string;
  handler: (rawArgs: string) => unknown;
  description: string;
  argsHint?: string;
}

export interface PluginCliCommand {
  name: string;
  plugin: string;
  help: string;
  handler: (...args: unknown[]) => unknown;
}

export interface PluginSkill {
  /** `<plugin>:<name>` */
  name: string;
  plugin: string;
  path: string;
  description?: string;
}

export type Counted = 'tools' | 'hooks' | 'middleware' | 'commands';

/** What one plugin registered: counts for the info list and the undo steps for a rollback. */
export interface PluginLedger {
  counts: Record<Counted, number>;
  warnings: string[];
  undo: Array<() => void>;
  /** Set (to the reason) when the plugin was given up on: no registration is accepted any more. */
  closed?: string;
}

export function newLedger(): PluginLedger {
  return { counts: { tools: 0, hooks: 0, middleware: 0, commands: 0 }, warnings: [], undo: [] };
}

/** Runs a ledger's undo steps newest first, so an override restores what it displaced. */
export function rollback(ledger: PluginLedger): void {
  for (const undo of ledger.undo.splice(0).reverse()) undo();
  ledger.counts = { tools: 0, hooks: 0, middleware: 0, commands: 0 };
}

/** Everything plugins registered, shared by all contexts of one host. */
export class Registrations {
  readonly hooks = new Map<string, HookEntry[]>();
  readonly middleware = new Map<string, HookEntry[]>();
  readonly commands = new Map<string, PluginCommand>();
  readonly cliCommands = new Map<string, PluginCliCommand>();
  readonly skills = new Map<string, PluginSkill>();
  contextEngine: { plugin: string; engine: ContextEngine } | null = null;
}

/** Adds `entry` to the list under `key`; returns the removal. */
export function appendEntry(map: Map<string, HookEntry[]>, key: string, entry: HookEntry): () => void {
  const list = map.get(key) ?? [];
  list.push(entry);
  map.set(key, list);
  return () => {
    const current = map.get(key) ?? [];
    const index = current.indexOf(entry);
    if (index >= 0) current.splice(index, 1);
    if (current.length === 0) map.delete(key);
  };
}

/** Takes a plugin's tool out of the registry again, putting back the built-in it replaced (if any). */
export function removeTool(registry: ToolRegistry, name: string, previous: ToolDefinition | undefined): void {
  if (previous) {
    registry.register(previous, { allowOverride: true });
    return;
  }
  registry.unregister(name);
}
