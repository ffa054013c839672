import { silentLogger, type ContextEngine, type ExtensionPort, type Logger } from '@hermes/agent-core';
import { discoverPlugins, type DiscoveredPlugin } from './discovery/discover.ts';
import { gateVerdict } from './discovery/gate.ts';
import { missingEnv } from './discovery/requiredEnv.ts';
import { entryStamp, knownManifests, loadInterrupted, readLoadRecords, sameStamp, writeLoadRecords, type LoadRecord } from './discovery/loadRecord.ts';
import { PluginContext } from './context/pluginContext.ts';
import { newLedger, Registrations, rollback, type PluginCliCommand, type PluginCommand, type PluginLedger, type PluginSkill } from './context/registrations.ts';
import { errorText, FailureLog } from './dispatch/failureLog.ts';
import { runHook } from './dispatch/hooks.ts';
import { applyRequestChain, runExecutionChain } from './dispatch/middleware.ts';
import { findRegister, importAll, importEntry, importInOrder, isTypeScript } from './loader/importEntry.ts';
import { KnownGood } from './loader/knownGood.ts';
import { LoadGuard, type LoadingPlugin } from './loader/loadGuard.ts';
import { loadingOf, partition, settled, settledTogether, timedOut, withDeadline, type Imported } from './loader/importOutcome.ts';
import { abandonCalls, enterPlugin, inPlugin, leavePlugins, rememberPluginDir } from './containment/pluginScope.ts';
import type { PluginHostOptions, PluginInfo } from './pluginHostTypes.ts';

const DEFAULT_HOOK_TIMEOUT_S = 30;
const DEFAULT_REGISTER_TIMEOUT_S = 10;

/** A plugin's place in one load: discovered, maybe skipped as still blocked, maybe imported. */
interface LoadPlan {
  plugin: DiscoveredPlugin;
  blocked: string | null;
  imported: Imported | Promise<Imported> | null;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> => typeof (value as { then?: unknown } | null)?.then === 'function';

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** What discovery and the manifest say about a plugin, and which of its required variables are set nowhere. */
function identity(plugin: DiscoveredPlugin, env: Record<string, string | undefined>, dotenv: Record<string, string>): Pick<PluginInfo, 'name' | 'key' | 'version' | 'description' | 'source' | 'dir' | 'missingEnv'> {
  return {
    name: plugin.name,
    key: plugin.name,
    version: plugin.manifest?.version ?? null,
    description: plugin.manifest?.description ?? null,
    source: plugin.source,
    dir: plugin.dir,
    missingEnv: missingEnv(plugin.manifest?.requiresEnv ?? [], env, dotenv),
  };
}

/** A failure to load, as opposed to a refusal by config or a Python plugin (listed, never loadable here). */
const loadFailed = (plugin: DiscoveredPlugin): boolean => plugin.error !== null && !plugin.python;

/** Discovers, gates and loads plugins, and serves their registrations as agent-core's ExtensionPort. */
export class PluginHost {
  private readonly registrations = new Registrations();
  private readonly ledgers = new Map<string, PluginLedger>();
  private readonly failures: FailureLog;
  private readonly logger: Logger;
  private infos: PluginInfo[] | null = null;
  private loading: Promise<PluginInfo[]> | null = null;
  /** Set by `discover()`: this host imports no plugin code, a reload included. */
  private discoveryOnly = false;
  private generation = 0;

  constructor(private readonly options: PluginHostOptions) {
    this.logger = options.logger ?? silentLogger;
    this.failures = new FailureLog(this.logger, options.onFault);
  }

  private get pluginsConfig(): Record<string, unknown> {
    return record(this.options.config?.plugins);
  }

  private identity(plugin: DiscoveredPlugin): ReturnType<typeof identity> {
    return identity(plugin, this.options.env ?? process.env, this.options.dotenv ?? {});
  }

  private seconds(key: string, fallback: number): number {
    const value = this.pluginsConfig[key];
    return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  }

  /** False for a host that only discovers (`discover()`): it never imports plugin code. */
  get importsPlugins(): boolean {
    return !this.discoveryOnly;
  }

  /** `plugins.hook_callback_timeout` in ms (0: no limit). */
  get hookTimeoutMs(): number {
    return this.seconds('hook_callback_timeout', DEFAULT_HOOK_TIMEOUT_S) * 1000;
  }

  /** Discovers and loads once; later calls return the same list (use `reload()` to start over). */
  load(): Promise<PluginInfo[]> {
    if (this.infos) return Promise.resolve(this.infos);
    this.loading ??= this.loadAll().finally(() => (this.loading = null));
    return this.loading;
  }

  /**
   * Undoes every registration of every plugin, then discovers and loads again from the files and config
   * as they are now. A plugin that fails is rolled back alone; the others load. A reload waits for a
   * load in progress (a second reload meanwhile shares its load). A discovery-only host discovers
   * again and imports nothing (`hermes plugins disable` must work while a plugin kills its process).
   */
  async reload(): Promise<PluginInfo[]> {
    // A failed earlier load is no reason not to try again: this reload reports its own outcome.
    await this.loading?.catch(() => undefined);
    if (this.discoveryOnly) return this.discover();
    this.unloadAll();
    this.generation += 1;
    return this.load();
  }

  /** Removes every registration of every plugin and forgets past failures. */
  unloadAll(): void {
    for (const ledger of [...this.ledgers.values()].reverse()) rollback(ledger);
    this.ledgers.clear();
    this.failures.reset();
    this.infos = null;
  }

  list(): PluginInfo[] {
    return this.infos ?? [];
  }

  /**
   * What discovery, the manifests and the config know, importing nothing (for `hermes plugins
   * list|enable|disable`, which must work while a plugin hangs or kills its process). `enabled` says
   * whether the plugin would load; counts and a load error come from the last start that loaded it.
   */
  discover(): PluginInfo[] {
    this.discoveryOnly = true;
    const { home, cwd, env = process.env, npmRoots } = this.options;
    const records = readLoadRecords(home, this.logger);
    this.infos = discoverPlugins({ home, cwd, env, knownManifests: knownManifests(records), ...(npmRoots ? { npmRoots } : {}) }).map((plugin) => {
      const refused = plugin.error ?? (plugin.entry ? gateVerdict(plugin.name, this.pluginsConfig) : 'no entry file');
      const last = records[plugin.name]?.dir === plugin.dir ? records[plugin.name] : undefined;
      const lastError = !refused && last?.failed && last.error ? `at the last start: ${last.error}` : null;
      return {
        ...this.identity(plugin),
        enabled: refused === null,
        tools: last?.tools ?? 0,
        hooks: last?.hooks ?? 0,
        middleware: last?.middleware ?? 0,
        commands: last?.commands ?? 0,
        error: refused ?? lastError,
        failed: loadFailed(plugin) || lastError !== null,
        warnings: [],
        countsFrom: last && !refused ? 'last_start' : 'unknown',
      };
    });
    return this.infos;
  }

  /**
   * Every JavaScript entry is imported in one module graph: Node reads, compiles and links them all at
   * once, then runs their top-level code in discovery order. register() then runs one plugin at a time
   * in discovery order, so registrations (hook order, name clashes) do not depend on which file was
   * read first. TypeScript entries are imported after the others, one at a time (tsx compiles them on
   * another thread, so their code cannot announce itself as it starts).
   */
  private async loadAll(): Promise<PluginInfo[]> {
    const { home, cwd, env = process.env, tools, npmRoots } = this.options;
    const builtinTools = new Set(tools.names());
    const previous = readLoadRecords(home, this.logger);
    const limitS = this.seconds('register_timeout', DEFAULT_REGISTER_TIMEOUT_S);
    const guard = new LoadGuard(home, previous, limitS, this.logger, this.options.loadWatch);
    const plans: LoadPlan[] = discoverPlugins({ home, cwd, env, knownManifests: knownManifests(previous), ...(npmRoots ? { npmRoots } : {}) }).map((plugin) => {
      const blocked = plugin.entry && !plugin.error ? this.stillBlocked(previous[plugin.name], plugin.entry) : null;
      return { plugin, blocked, imported: null };
    });
    const importing = plans.filter((p) => !p.blocked && p.plugin.entry && !p.plugin.error && !gateVerdict(p.plugin.name, this.pluginsConfig));
    const [typescript, javascript] = partition(importing, (p) => isTypeScript(p.plugin.entry!));
    const loadings = javascript.map((plan) => loadingOf(plan.plugin));
    const knownGood = new KnownGood(home, this.options.hermesVersion ?? '', this.logger);
    // Known-good only after a load that completed (its loading mark emptied).
    const covered = javascript.length > 0 && !loadInterrupted(home) && knownGood.covers(loadings.map((l) => l.stamp));
    // The fast path's own mark stays if this load dies or is stopped, so the next one is marked.
    const fast = covered && guard.runningTogether(javascript.length);
    if (fast) await this.importFast(javascript, loadings, guard, limitS);
    else await this.importTogether(javascript, loadings, guard, limitS);
    for (const plan of typescript) await (plan.imported = this.importOf(plan.plugin, guard, limitS));
    guard.idle();

    const infos: PluginInfo[] = [];
    const records: Record<string, LoadRecord> = {};
    for (const { plugin, blocked, imported } of plans) {
      if (blocked) {
        this.logger.warn(`plugin ${plugin.name} (${plugin.source}) not loaded: ${blocked}`);
        infos.push({ ...this.identity(plugin), enabled: false, tools: 0, hooks: 0, middleware: 0, commands: 0, error: blocked, failed: true, warnings: [] });
        records[plugin.name] ??= previous[plugin.name]!;
        continue;
      }
      const loading = this.loadOne(plugin, builtinTools, imported, guard, limitS);
      const info = loading instanceof Promise ? await loading : loading;
      infos.push(info);
      const manifest = plugin.manifest && plugin.manifestFile ? { manifest: { ...plugin.manifestFile, manifest: plugin.manifest } } : {};
      records[info.name] ??= { dir: info.dir, tools: info.tools, hooks: info.hooks, middleware: info.middleware, commands: info.commands, error: info.error, failed: info.failed, ...manifest };
    }
    guard.done();
    // Usually every import is settled by now: no Promise.all (with plugins' async context on, each promise costs).
    const imports = javascript.map((plan) => plan.imported!);
    const outcomes = imports.some((outcome) => outcome instanceof Promise) ? await Promise.all(imports) : (imports as Imported[]);
    // A fast load that imported every entry leaves the record as it is (it covers them all already).
    if (outcomes.some((outcome) => 'error' in outcome)) knownGood.forget();
    else if (javascript.length > 0 && !fast) knownGood.remember(loadings.flatMap((l) => (l.stamp ? [l.stamp] : [])));
    this.infos = infos;
    // One line for the whole load: a logger writes each line to its file at once, and 100 plugins' lines were a cost.
    const loaded = infos.filter((info) => info.enabled).map((info) => `${info.name} (${info.source}: ${info.tools} tools, ${info.hooks} hooks, ${info.middleware} middleware, ${info.commands} commands)`);
    if (loaded.length > 0) this.logger.info(`${loaded.length} plugin(s) loaded: ${loaded.join(', ')}`);
    if (infos.length > 0) writeLoadRecords(home, records, this.logger, previous);
    return infos;
  }

  /** Why a plugin that blocked the last start is skipped now (its entry file unchanged since), or null. */
  private stillBlocked(record: LoadRecord | undefined, entry: string): string | null {
    const then = record?.blocked;
    if (!then || !sameStamp(then, entryStamp(entry))) return null;
    return `skipped: ${record!.error ?? 'it blocked hermes while loading'} (it is tried again once ${entry} changes)`;
  }

  /**
   * Imports JavaScript entries as one module graph, evaluated in discovery order (importInOrder), each
   * plugin's code under its name from its marker on. Its module loading runs before any plugin code,
   * so before AsyncLocalStorage's promise hooks are on: they would slow every step of it.
   */
  private async importTogether(plans: LoadPlan[], loadings: LoadingPlugin[], guard: LoadGuard, limitS: number): Promise<void> {
    const started = performance.now();
    const ends = new Map<LoadPlan, () => void>();
    const entries = plans.map((plan, i) => {
      const loading = loadings[i]!;
      rememberPluginDir(plan.plugin.name, plan.plugin.dir);
      return {
        entry: loading.entry,
        evaluating: () => {
          guard.running(loading);
          ends.set(plan, enterPlugin(plan.plugin.name, 'register()'));
        },
      };
    });
    const modules = await importInOrder(entries, this.generation, leavePlugins);
    plans.forEach((plan, i) => {
      const outcome = settled(loadings[i]!, modules[i]!, started, limitS);
      const end = () => ends.get(plan)?.();
      if (outcome instanceof Promise) plan.imported = outcome.finally(end);
      else {
        end();
        plan.imported = outcome;
      }
    });
    await Promise.all(plans.flatMap((p) => (p.imported instanceof Promise ? [p.imported] : [])));
  }

  /**
   * The fast path, for entries all known-good (the guard already told: `runningTogether`): imported in
   * parallel without markers (importAll), under one time limit and one watch that can contain a block
   * but not name it. Each import's own outcome (module or throw) is still its plugin's; register() then
   * runs in discovery order, named, as always.
   */
  private async importFast(plans: LoadPlan[], loadings: LoadingPlugin[], guard: LoadGuard, limitS: number): Promise<void> {
    const started = performance.now();
    for (const plan of plans) rememberPluginDir(plan.plugin.name, plan.plugin.dir);
    const outcomes = await settledTogether(loadings, importAll(loadings.map((l) => l.entry), this.generation), started, limitS);
    guard.idle();
    plans.forEach((plan, i) => (plan.imported = outcomes[i]!));
  }

  /** Imports one plugin's entry; settles with its module or the error, and how long it took. */
  private importOf(plugin: DiscoveredPlugin, guard: LoadGuard, limitS: number): Imported | Promise<Imported> {
    const loading = loadingOf(plugin);
    rememberPluginDir(plugin.name, plugin.dir);
    const started = performance.now();
    return settled(loading, inPlugin(plugin.name, 'register()', () => importEntry(loading.entry, this.generation, () => guard.running(loading))), started, limitS);
  }

  /**
   * Runs one plugin's register(ctx). Settles at once (no promise, no turn of the event loop) when its
   * import is done and its register() returns no promise: the usual case, and 100 plugins took ~2 ms
   * more awaited one by one.
   */
  private loadOne(plugin: DiscoveredPlugin, builtinTools: ReadonlySet<string>, imported: Imported | Promise<Imported> | null, guard: LoadGuard, limitS: number): PluginInfo | Promise<PluginInfo> {
    const ledger = newLedger();
    const described = this.identity(plugin);
    const info = (enabled: boolean, error: string | null, failed = error !== null): PluginInfo => ({
      ...described,
      enabled,
      ...ledger.counts,
      error,
      failed,
      warnings: [...ledger.warnings],
    });
    if (plugin.error || !plugin.entry) {
      this.logger.warn(`plugin ${plugin.name} (${plugin.source}) not loaded: ${plugin.error}`);
      return info(false, plugin.error ?? 'no entry file', plugin.python ? false : undefined);
    }
    const refused = gateVerdict(plugin.name, this.pluginsConfig);
    if (refused || !imported) return info(false, refused ?? 'not imported', false);
    const entryConfig = record(record(this.pluginsConfig.entries)[plugin.name]);
    const ctx = new PluginContext({
      plugin: plugin.name,
      dir: plugin.dir,
      ledger,
      registrations: this.registrations,
      tools: this.options.tools,
      builtinTools,
      builtinCommands: this.options.builtinCommands ?? new Set(),
      allowToolOverride: entryConfig.allow_tool_override === true,
      // Hermes's name for them; its older `config` is read when `settings` is absent.
      settings: record(entryConfig.settings ?? entryConfig.config),
      missingEnv: described.missingEnv,
      logger: this.logger,
      callbacks: this.options.callbacks ?? {},
    });
    // The watch stops after a failure is rolled back and reported, before a success is kept.
    const loaded = (): PluginInfo => {
      guard.idle();
      this.ledgers.set(plugin.name, ledger);
      return info(true, null);
    };
    const failed = (error: unknown): PluginInfo => {
      abandonCalls(plugin.name, 'register()');
      ledger.closed = errorText(error);
      rollback(ledger);
      const text = errorText(error);
      const stack = error instanceof Error && error.stack ? `\n${error.stack}` : '';
      this.logger.warn(`plugin ${plugin.name} failed to load and was rolled back: ${text}${stack}`);
      const refused = info(false, text);
      guard.idle();
      return refused;
    };
    const register = (outcome: Imported): PluginInfo | Promise<PluginInfo> => {
      let registered: unknown;
      try {
        // Importing (top-level await included) and register() share one time limit: a plugin that never
        // finishes is given up on, and hermes starts without it. A register() that returns no promise is
        // done when it returns (one that blocks is the watchdog's): no timer, no promise for it.
        registered = inPlugin(plugin.name, 'register()', () => {
          if ('error' in outcome) throw outcome.error;
          const registerFn = findRegister(outcome.module);
          if (!registerFn) throw new Error(`${plugin.entry} exports no register(ctx) function (named or default)`);
          guard.running(outcome.loading);
          const result = registerFn(ctx);
          return isThenable(result) ? Promise.resolve(result) : result;
        });
      } catch (error) {
        return failed(error);
      }
      if (!(registered instanceof Promise)) return loaded();
      // What the import used of the limit is gone (at least a moment is left: a register() that needs none passes).
      const leftMs = limitS > 0 ? Math.max(1, limitS * 1000 - outcome.ms) : 0;
      return withDeadline(registered, leftMs, timedOut(plugin.name, limitS)).then(loaded, failed);
    };
    return imported instanceof Promise ? imported.then(register) : register(imported);
  }

  /** The ExtensionPort agent-core calls at the documented points. */
  readonly port: ExtensionPort = {
    invokeHook: async (name, payload, signal) => {
      const entries = this.registrations.hooks.get(name) ?? [];
      if (entries.length === 0) return [];
      return runHook(name, entries, payload, this.hookTimeoutMs, this.failures, signal);
    },
    applyRequestMiddleware: (kind, payload, context, signal) =>
      applyRequestChain(kind, this.registrations.middleware.get(kind) ?? [], payload, context, this.failures, signal),
    runExecutionMiddleware: (kind, payload, context, terminal, signal) =>
      runExecutionChain(kind, this.registrations.middleware.get(kind) ?? [], payload, context, terminal, this.failures, signal),
  };

  get commands(): PluginCommand[] {
    return [...this.registrations.commands.values()];
  }

  get cliCommands(): PluginCliCommand[] {
    return [...this.registrations.cliCommands.values()];
  }

  get skills(): PluginSkill[] {
    return [...this.registrations.skills.values()];
  }

  get contextEngine(): ContextEngine | null {
    return this.registrations.contextEngine?.engine ?? null;
  }
}
