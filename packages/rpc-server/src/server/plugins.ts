import { BUILTIN_COMMANDS, CommandRegistry, registerBuiltinCommands, type HermesRuntime, type Logger } from '@hermes/agent-core';
import { PluginHost, refuseProcessControlFromPlugins, type LoadWatch, type PluginInfo } from '@hermes/plugin-host';
import type { LiveSessions } from './liveSessions.ts';
import { pluginWatchdog } from './pluginWatchdog.ts';
import { HERMES_VERSION } from '../version.ts';

/** Every built-in command name and alias: plugins may not take them. */
export function builtinCommandNames(): Set<string> {
  return new Set(BUILTIN_COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])]));
}

/**
 * Loads the user's (and, when enabled, the project's and npm's) plugins and plugs them into the
 * runtime: the extension port, a replacement context engine, tools (through the shared registry).
 */
export async function loadPlugins(runtime: HermesRuntime, sessions: LiveSessions, logger: Logger): Promise<PluginHost> {
  // Before any plugin code runs: process.exit and friends from a plugin throw, naming it.
  refuseProcessControlFromPlugins(logger);
  // A plugin blocking the thread past the hook limit is stopped by the watchdog (its own thread).
  let host: PluginHost | null = null;
  const watch = pluginWatchdog(() => host?.hookTimeoutMs ?? 0);
  host = pluginHost(runtime, sessions, logger, watch);
  const plugins = await host.load();
  applyPlugins(runtime, host);
  // The host logged the loaded plugins in one line.
  for (const p of plugins) if (p.error) logger.warn('plugin %s (%s) not loaded: %s', p.name, p.source, p.error);
  return host;
}

/** For `--discover-plugins-only`: the plugins listed from discovery, manifests and config; none imported. */
export function discoverPluginsOnly(runtime: HermesRuntime, sessions: LiveSessions, logger: Logger): PluginHost {
  const host = pluginHost(runtime, sessions, logger);
  host.discover();
  return host;
}

function pluginHost(runtime: HermesRuntime, sessions: LiveSessions, logger: Logger, loadWatch?: LoadWatch): PluginHost {
  return new PluginHost({
    ...(loadWatch ? { loadWatch } : {}),
    home: runtime.home,
    hermesVersion: HERMES_VERSION,
    cwd: process.cwd(),
    env: process.env,
    dotenv: runtime.loaded.dotenv,
    config: runtime.loaded.config.raw,
    tools: runtime.tools,
    builtinCommands: builtinCommandNames(),
    logger,
    // A hook or middleware that throws or times out is shown to the user once, not only logged.
    onFault: (message: string) => {
      for (const live of sessions.all()) live.bridge.handle({ type: 'status.update', payload: { kind: 'warn', text: message } });
    },
    callbacks: {
      // Into the most recent open session: sent now when idle, after the running turn otherwise.
      injectMessage: (content: string) => {
        const live = sessions.all().at(-1);
        if (!live) return false;
        live.agent.inject(content);
        return true;
      },
      dispatchTool: (name: string, args: Record<string, unknown>) => runtime.dispatchTool(name, args),
    },
  });
}

/** One line per plugin that should have loaded and did not, for the user to see when a session opens. */
export function pluginFailureNotices(host: PluginHost): string[] {
  return host
    .list()
    .filter((p) => p.failed)
    .map((p) => `plugin ${p.name} is disabled: ${p.error} (see \`hermes plugins list\`, $HERMES_HOME/logs/backend.log)`);
}

/** What a reload changes: the runtime, the host, and the command registry it rebuilds. */
export interface PluginReloadTarget {
  runtime: HermesRuntime;
  plugins: PluginHost;
  commands: CommandRegistry;
  /** The open sessions: each is told the new truth (tool sets, plugin count) once the reload is done. */
  sessions?: { all(): { service: { publishInfo(): void } }[] };
}

/**
 * THE plugin reload (`/reload-plugins`, `config.set plugins.*`): the host undoes every registration
 * of every plugin and loads them again; then what the runtime derives from them (context engine,
 * skills, slash commands) is rebuilt. Tools, hooks and middleware are read live from the host's
 * registry, so nothing else holds a copy. Open sessions read tools and engine at the start of each
 * turn, so their next turn sees the result. Returns a one-line summary for the user.
 */
export async function reloadPlugins(target: PluginReloadTarget): Promise<string> {
  const infos = await target.plugins.reload();
  applyPlugins(target.runtime, target.plugins);
  target.commands = buildCommandRegistry(target.plugins);
  for (const live of target.sessions?.all() ?? []) live.service.publishInfo();
  return reloadSummary(infos, target.plugins.importsPlugins);
}

function reloadSummary(infos: PluginInfo[], imported: boolean): string {
  if (!imported) return `Listed ${infos.length} plugin(s); this backend only discovers plugins (nothing loaded): changes apply at the next start of hermes.`;
  const loaded = infos.filter((p) => p.enabled).length;
  // A plugin the config turns off is not a failure; one that broke while loading is.
  const off = infos.filter((p) => !p.enabled && !p.failed).length;
  const failed = infos.filter((p) => p.failed);
  return (
    `Reloaded ${loaded} plugin(s)${off ? ` (${off} disabled in config)` : ''}` +
    (failed.length ? `; ${failed.length} failed: ${failed.map((p) => `${p.name} (${p.error})`).join('; ')}` : '') +
    '.'
  );
}

/**
 * After a load or reload: the port, context engine and skills the sessions use. Everything here is
 * replaced wholesale, so a plugin that is gone, disabled or failed leaves nothing behind (its engine
 * gives way to the built-in one).
 */
export function applyPlugins(runtime: HermesRuntime, host: PluginHost): void {
  runtime.extensions = host.port;
  runtime.usePluginContextEngine(host.contextEngine);
  // Plugin skills: read-only, loaded on request.
  runtime.skills.removePluginSkills();
  for (const skill of host.skills) {
    try {
      runtime.skills.addPluginSkill({ name: skill.name, path: skill.path, ...(skill.description ? { description: skill.description } : {}) });
    } catch (error) {
      runtime.logger.warn('skill %s not added: %s', skill.name, (error as Error).message);
    }
  }
}

/** The one command registry: built-ins plus the loaded plugins' commands. */
export function buildCommandRegistry(host: PluginHost): CommandRegistry {
  const registry = new CommandRegistry();
  registerBuiltinCommands(registry);
  registerPluginCommands(registry, host);
  return registry;
}

export function registerPluginCommands(registry: CommandRegistry, host: PluginHost): void {
  for (const command of host.commands) {
    registry.register({
      name: command.name,
      description: command.description,
      argsHint: command.argsHint ?? '',
      source: command.plugin,
      category: `Plugin: ${command.plugin}`,
      handler: async (args) => {
        const output = await withinHookTimeout(command.handler(args), host.hookTimeoutMs);
        return typeof output === 'string' && output ? { output } : {};
      },
    });
  }
}

/**
 * A plugin command that never answers would hold its `slash.exec` (and the user's screen) forever: it
 * gets the hooks' limit, `plugins.hook_callback_timeout` (0: none), and then fails like a throw.
 */
async function withinHookTimeout(pending: unknown, timeoutMs: number): Promise<unknown> {
  if (!(timeoutMs > 0)) return pending;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it did not answer within ${timeoutMs / 1000} s (plugins.hook_callback_timeout)`)), timeoutMs);
  });
  try {
    return await Promise.race([pending, late]);
  } finally {
    clearTimeout(timer);
  }
}
