import { AsyncLocalStorage } from 'node:async_hooks';

/** Which plugin's code is running, and in which callback (`register()`, `post_tool_call hook`, …). */
export interface PluginCall {
  plugin: string;
  callback: string;
}

const scope = new AsyncLocalStorage<PluginCall>();
/** Callbacks started and not yet settled, so a death with no async context still names a suspect. */
const running = new Map<PluginCall, true>();

/** Told when a plugin callback starts and settles (a watchdog on another thread keeps the list). */
export interface CallWatcher {
  started(call: PluginCall): void;
  ended(call: PluginCall): void;
}
let watcher: CallWatcher | null = null;

export function watchPluginCalls(next: CallWatcher | null): void {
  watcher = next;
}

function end(call: PluginCall): void {
  if (running.delete(call)) watcher?.ended(call);
}

/**
 * Runs plugin code with its name attached to the async context: timers, promises and I/O callbacks it
 * starts keep the name, so a crash, an exit attempt or a stray write can be traced to the plugin.
 */
export function inPlugin<T>(plugin: string, callback: string, run: () => T): T {
  const call: PluginCall = { plugin, callback };
  running.set(call, true);
  watcher?.started(call);
  let result: T;
  try {
    result = scope.run(call, run);
  } catch (error) {
    end(call);
    throw error;
  }
  if (result instanceof Promise) {
    result.then(
      () => end(call),
      () => end(call),
    );
  } else end(call);
  return result;
}

/**
 * Puts plugin code that is about to run synchronously under its name, from here to the end of the
 * current synchronous run (a module's top-level code, announced by its marker just before it runs):
 * the timers, promises and I/O it starts keep the name. Returns what ends the call.
 */
export function enterPlugin(plugin: string, callback: string): () => void {
  const call: PluginCall = { plugin, callback };
  running.set(call, true);
  watcher?.started(call);
  scope.enterWith(call);
  return () => end(call);
}

/** Ends what `enterPlugin` started for the rest of the current synchronous run: core code runs next. */
export function leavePlugins(): void {
  scope.enterWith(undefined as unknown as PluginCall);
}

/** A callback given up on (timed out) no longer counts as running, though its promise may never settle. */
export function abandonCalls(plugin: string, callback: string): void {
  for (const call of running.keys()) if (call.plugin === plugin && call.callback === callback) end(call);
}

/** Runs core code (the rest of a middleware chain, the real tool or provider) outside any plugin's name. */
export function outsidePlugins<T>(run: () => T): T {
  return scope.exit(run);
}

/** The plugin whose code is running in this async context, if any. */
export function currentPluginCall(): PluginCall | undefined {
  return scope.getStore();
}

export function describeCall(call: PluginCall): string {
  return `plugin ${call.plugin} (${call.callback})`;
}

const pluginDirs = new Map<string, string>();

/** Remembers where a plugin's files are, so a stack trace through them names the plugin. */
export function rememberPluginDir(plugin: string, dir: string): void {
  pluginDirs.set(dir.endsWith('/') ? dir : `${dir}/`, plugin);
}

/**
 * For a crash report: the plugin in whose async context it happened, else the plugin whose files
 * appear in the error's stack, else the plugin callbacks that were running at the time (the likely
 * culprits), else null.
 */
export function blamePlugins(error?: unknown): string | null {
  const current = currentPluginCall();
  if (current) return describeCall(current);
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  for (const [dir, plugin] of pluginDirs) {
    if (stack.includes(dir) || stack.includes(`file://${dir}`)) return `plugin ${plugin} (its code is in the stack)`;
  }
  const suspects = [...running.keys()].map(describeCall);
  return suspects.length ? `while running: ${[...new Set(suspects)].join(', ')}` : null;
}
