/**
 * The plugin host's public shapes: what a PluginHost is given, what it tells a watchdog while plugins
 * load, and what it lists of each plugin.
 */
import type { Logger, ToolRegistry } from '@hermes/agent-core';
import type { HostCallbacks } from './context/pluginContext.ts';
import type { PluginSource } from './discovery/discover.ts';
import type { RequiredEnv } from './discovery/manifest.ts';

export interface PluginHostOptions {
  home: string;
  cwd: string;
  env?: Record<string, string | undefined>;
  /** `$HERMES_HOME/.env`, for `requires_env` (the process environment wins over it). */
  dotenv?: Record<string, string>;
  /** The loaded config's raw object (`plugins.enabled`, `plugins.disabled`, `plugins.entries`, `plugins.hook_callback_timeout`). */
  config?: Record<string, unknown>;
  tools: ToolRegistry;
  builtinCommands?: ReadonlySet<string>;
  logger?: Logger;
  callbacks?: HostCallbacks;
  npmRoots?: string[];
  /**
   * Told when a plugin's import and register() start (with what to write and say if they block the
   * whole process past `limitMs`) and when they end. A synchronous loop blocks every timer of this
   * thread, so only something on another thread can notice; the backend runs a watchdog worker.
   */
  loadWatch?: LoadWatch;
  /** The hermes version: a known-good set of plugins (the fast path) is one loaded by this version. */
  hermesVersion?: string;
  /** Told once per distinct fault of a plugin callback at run time (the log's warning, without its stack). */
  onFault?: (message: string) => void;
}

/** What a watchdog needs to report a plugin that blocked hermes while loading, from another thread. */
export interface BlockedLoad {
  /** null: plugins imported together on the fast path (KnownGood), none of them known to be running. */
  plugin: string | null;
  /** Its entry file: a record of a block names this version of it. */
  entry: string | null;
  limitMs: number;
  /**
   * The load record file, and its contents with this plugin marked as blocked: `recordsHead` (the last
   * start's records as JSON without the closing braces; the same string for every plugin of a load, so a
   * watchdog on another thread is sent it once), then `record` (`"name":{…}`), then `}}`. Without
   * `record` (the fast path), the file is left as it is.
   */
  recordFile: string;
  recordsHead?: string;
  record?: string;
  /** What to tell the user: the plugin, what it did, and the fix. */
  message: string;
}

export interface LoadWatch {
  start(load: BlockedLoad): void;
  stop(): void;
}

export interface PluginInfo {
  name: string;
  key: string;
  version: string | null;
  description: string | null;
  source: PluginSource;
  dir: string;
  enabled: boolean;
  tools: number;
  hooks: number;
  middleware: number;
  commands: number;
  /** Why it is not enabled, or null. */
  error: string | null;
  /** Its manifest's `requires_env` entries that are set nowhere (it loads anyway and sees them as `ctx.missingEnv`). */
  missingEnv: RequiredEnv[];
  /** It should have loaded but failed (bad manifest, import, register() error or time-out): not a config refusal. */
  failed: boolean;
  /** Registrations refused while it loaded (e.g. a command clashing with a built-in). */
  warnings: string[];
  /** Only for `discover()`: the counts come from the last start that loaded it, or are unknown. */
  countsFrom?: 'last_start' | 'unknown';
}
