/**
 * MCP servers as tools: connects every enabled server in the background, registers its tools in the
 * one ToolRegistry and keeps them in step with the server: `tools/list_changed` refreshes them, a
 * server that fails or crashes loses its tools, is reported once (log and status) and is retried with
 * capped back-off (docs/mcp.md). The SDK is loaded on the first connect, never at the backend's start.
 */
import type { McpServerState, McpServerStatus } from '../contract/mcp.ts';
import type { Logger } from '../logging/logger.ts';
import { redactSecrets } from '../secrets/processSecrets.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import { mcpToolsetNote } from '../tools/toolsets.ts';
import type { McpServerConfig } from './mcpConfig.ts';
import type { McpConnection } from './mcpConnection.ts';
import { connectSpec, errorMessage, offeredTools, targetOf } from './serverSpec.ts';
import { buildToolDefinitions, skippedWarning, unmatchedToolsNote } from './mcpTools.ts';
import { loadConnectionModule } from './connectionLoader.ts';
import { withoutStderr } from './requestError.ts';
import { MissingVariableError, resolveServerSecrets } from './secretRefs.ts';
import { claimedByEarlier, mcpToolset } from './toolNames.ts';

export interface McpManagerOptions {
  servers: McpServerConfig[];
  discoveryTimeoutS: number;
  registry: ToolRegistry;
  /** Where `${VAR}` references are looked up: the process environment merged with `$HERMES_HOME/.env`. */
  env: Record<string, string | undefined>;
  logger: Logger;
  /**
   * The environment stdio servers start from (their `env` is added to it): the runtime's tool
   * environment, without provider keys and `.env` variables. Default: this process's, minus provider keys.
   */
  childEnv?: Record<string, string>;
  /** The `toolsets:` selection now (absent: all): a server whose toolset it leaves out says so in its status. */
  toolsets?: () => readonly string[] | undefined;
  /** Retry back-off: the first delay, doubled each failure up to the cap (ms). */
  retry?: { firstMs: number; maxMs: number };
}

const DEFAULT_RETRY = { firstMs: 1_000, maxMs: 60_000 };

interface ServerEntry {
  config: McpServerConfig;
  status: McpServerState;
  error: string | null;
  transport: McpServerStatus['transport'];
  connection: McpConnection | null;
  tools: string[];
  /** Failures since the last success: the next delay doubles with each. */
  failures: number;
  retryTimer: NodeJS.Timeout | null;
  /** The first attempt has ended (connected or failed): discovery does not wait for it any more. */
  settled: boolean;
  /** The failure last written to the log (without stderr, which may hold pids or times), so a server failing the same way on each retry is reported once. */
  reported: string | null;
  /** False once the entry was closed (reload, close): its late callbacks are ignored. */
  live: boolean;
  /** The last warning about tools not offered (malformed, too large): logged once, not on every refresh. */
  skippedNote: string | null;
  /** include/exclude names the server does not list: logged once, shown in the status. */
  unmatchedNote: string | null;
  /** Tools unregistered because the server went down: a call of one is told so (registry goneReason) until they are back. */
  downTools: string[];
  /** The connect in flight: closing the entry aborts it (kills a stdio child at once, not at connect_timeout). */
  attempt: AbortController | null;
}

export class McpManager {
  private entries: ServerEntry[] = [];
  private discoveryTimeoutS: number;
  private started = false;
  private readonly listeners = new Set<() => void>();
  private settledWaiters = new Set<() => void>();
  private readonly retry: { firstMs: number; maxMs: number };

  constructor(private readonly options: McpManagerOptions) {
    this.discoveryTimeoutS = options.discoveryTimeoutS;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.entries = options.servers.map((config) => this.newEntry(config));
  }

  /** Connects every enabled server in the background; never throws, never blocks. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const entry of this.entries) if (entry.config.enabled) void this.connect(entry);
  }

  /** One status per configured server, in config order. */
  statuses(): McpServerStatus[] {
    const selection = this.options.toolsets?.();
    return this.entries.map((entry) => {
      const notes = [entry.config.enabled ? mcpToolsetNote(selection, mcpToolset(entry.config.name)) : null, entry.unmatchedNote].filter((n) => n !== null);
      return {
        name: entry.config.name,
        status: entry.status,
        tool_count: entry.tools.length,
        error: entry.error,
        transport: entry.transport,
        target: redactSecrets(targetOf(entry.config)),
        tools: [...entry.tools],
        ...(notes.length > 0 ? { note: redactSecrets(notes.join('; ')) } : {}),
      };
    });
  }

  /** Called when a status or the tool set changed; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Resolves when every enabled server's first attempt has ended (connected or failed), or after
   * `timeoutMs` (default: mcp_discovery_timeout); at once when the manager was not started.
   */
  whenDiscovered(timeoutMs: number = this.discoveryTimeoutS * 1000): Promise<void> {
    if (this.allSettled()) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.settledWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.settledWaiters.add(done);
    });
  }

  /**
   * Applies edited config: a server whose resolved config is unchanged and that is connected (or
   * connecting) keeps its connection; changed and failed ones are closed and connected again (a reload
   * is how a user says "try now"), new ones are added, removed ones and their tools go. Resolves with
   * the statuses once discovery settled (or mcp_discovery_timeout passed).
   */
  async reload(servers: McpServerConfig[], discoveryTimeoutS?: number): Promise<McpServerStatus[]> {
    if (discoveryTimeoutS !== undefined) this.discoveryTimeoutS = discoveryTimeoutS;
    const old = new Map(this.entries.map((entry) => [entry.config.name, entry]));
    const kept = new Set<ServerEntry>();
    const fresh: ServerEntry[] = [];
    this.entries = servers.map((config) => {
      const previous = old.get(config.name);
      if (previous && (previous.status === 'connected' || previous.status === 'connecting') && this.sameSpec(previous.config, config)) {
        kept.add(previous);
        return previous;
      }
      const entry = this.newEntry(config);
      fresh.push(entry);
      return entry;
    });
    await Promise.all([...old.values()].filter((entry) => !kept.has(entry)).map((entry) => this.closeEntry(entry)));
    this.changed();
    this.started = true;
    for (const entry of fresh) if (entry.config.enabled) void this.connect(entry);
    await this.whenDiscovered();
    return this.statuses();
  }

  /** The same server after secrets are resolved (an edited `.env` value is a change); unresolvable is never the same. */
  private sameSpec(before: McpServerConfig, after: McpServerConfig): boolean {
    const resolved = (config: McpServerConfig) => {
      try {
        return JSON.stringify([config, resolveServerSecrets(config, this.options.env)]);
      } catch {
        return null;
      }
    };
    const key = resolved(after);
    return key !== null && key === resolved(before);
  }

  /** Closes every client and kills the stdio servers; their tools are unregistered. */
  async close(): Promise<void> {
    const entries = this.entries;
    this.entries = [];
    await Promise.all(entries.map((entry) => this.closeEntry(entry)));
    this.wakeWaiters();
  }

  private newEntry(config: McpServerConfig): ServerEntry {
    // Declared up front: `toolsets: [mcp-github]` is a known toolset while the server is still connecting.
    this.options.registry.declareToolset(mcpToolset(config.name), `Tools from the MCP server ${config.name}`);
    return {
      config,
      status: config.enabled ? 'connecting' : 'disabled',
      error: null,
      transport: config.transport,
      connection: null,
      tools: [],
      failures: 0,
      retryTimer: null,
      settled: !config.enabled,
      reported: null,
      live: true,
      skippedNote: null,
      unmatchedNote: null,
      downTools: [],
      attempt: null,
    };
  }

  private async closeEntry(entry: ServerEntry): Promise<void> {
    entry.live = false;
    if (entry.retryTimer) clearTimeout(entry.retryTimer);
    entry.retryTimer = null;
    entry.attempt?.abort();
    entry.attempt = null;
    this.unregisterTools(entry);
    this.forgetDownTools(entry);
    if (!this.entries.some((other) => mcpToolset(other.config.name) === mcpToolset(entry.config.name))) {
      this.options.registry.forgetToolset(mcpToolset(entry.config.name));
    }
    const connection = entry.connection;
    entry.connection = null;
    if (connection) {
      await connection.close().catch((error: unknown) => this.options.logger.warn('mcp: closing %s failed: %s', entry.config.name, errorMessage(error)));
    }
  }

  private async connect(entry: ServerEntry): Promise<void> {
    const { config } = entry;
    entry.retryTimer = null;
    let secrets: { env: Record<string, string>; headers: Record<string, string> };
    try {
      secrets = resolveServerSecrets(config, this.options.env);
    } catch (error) {
      // Retrying cannot help until the variable is set (and the config reloaded): no retry.
      return this.failed(entry, errorMessage(error), { retry: !(error instanceof MissingVariableError) });
    }
    let made: McpConnection | null = null;
    const attempt = new AbortController();
    entry.attempt = attempt;
    try {
      const { McpConnection } = await loadConnectionModule();
      if (!entry.live) return;
      const connection = await McpConnection.connect(
        { ...connectSpec(config, secrets, this.options.childEnv, config.connectTimeoutS * 1000), signal: attempt.signal },
        {
          onToolsChanged: () => void this.refreshTools(entry, connection),
          onLost: (reason) => this.lost(entry, connection, reason),
          onError: (message) => this.options.logger.warn('mcp: %s: %s', config.name, redactSecrets(message)),
        },
      );
      made = connection;
      if (entry.attempt === attempt) entry.attempt = null;
      if (!entry.live) {
        await connection.close();
        return;
      }
      entry.connection = connection;
      entry.transport = connection.transport;
      await this.registerTools(entry, connection);
      if (!entry.live || entry.connection !== connection) return;
      const wasDown = entry.reported !== null;
      entry.status = 'connected';
      entry.error = null;
      entry.failures = 0;
      entry.reported = null;
      this.options.logger.info('mcp: %s %s (%s, %d tools)', config.name, wasDown ? 'is back' : 'connected', connection.transport, entry.tools.length);
      this.settle(entry);
      this.changed();
    } catch (error) {
      if (entry.attempt === attempt) entry.attempt = null;
      if (!entry.live) return;
      // The connection was lost while its tools were listed: lost() reported it and scheduled the retry.
      if (made && entry.connection !== made) return;
      entry.connection = null;
      await made?.close().catch(() => undefined);
      this.failed(entry, errorMessage(error), { retry: true });
    }
  }

  /** The connection ended on its own (the process exited, the stream broke): tools go, a retry follows. */
  private lost(entry: ServerEntry, connection: McpConnection, reason: string): void {
    if (!entry.live || entry.connection !== connection) return;
    entry.connection = null;
    void connection.close().catch(() => undefined);
    this.failed(entry, reason, { retry: true });
  }

  private failed(entry: ServerEntry, reason: string, options: { retry: boolean }): void {
    if (!entry.live) return;
    const error = redactSecrets(`MCP server "${entry.config.name}" (${targetOf(entry.config)}): ${reason}`);
    const comeback = options.retry ? 'it is being restarted — try again later' : 'it is not retried until the config is fixed and reloaded';
    this.unregisterTools(entry, redactSecrets(`MCP server "${entry.config.name}" is down (${withoutStderr(reason)}); ${comeback}`));
    entry.status = 'failed';
    entry.error = error;
    entry.failures += 1;
    const delay = Math.min(this.retry.firstMs * 2 ** (entry.failures - 1), this.retry.maxMs);
    // Reported once: the same failure on every retry would fill the log.
    if (entry.reported !== withoutStderr(error)) {
      this.options.logger.warn('mcp: %s%s', error, options.retry ? ` (retrying in ${delay / 1000} s, then with growing intervals up to ${this.retry.maxMs / 1000} s)` : '');
      entry.reported = withoutStderr(error);
    }
    if (entry.retryTimer) clearTimeout(entry.retryTimer);
    entry.retryTimer = null;
    if (options.retry) {
      entry.retryTimer = setTimeout(() => void this.connect(entry), delay);
      // A pending retry must not keep the backend alive.
      entry.retryTimer.unref();
    }
    this.settle(entry);
    this.changed();
  }

  private async registerTools(entry: ServerEntry, connection: McpConnection): Promise<void> {
    const all = await connection.listTools(entry.config.connectTimeoutS * 1000);
    if (!entry.live || entry.connection !== connection) return;
    const listed = offeredTools(all, entry.config);
    const note = skippedWarning(entry.config.name, listed.skipped);
    if (note !== null && note !== entry.skippedNote) this.options.logger.warn('mcp: %s', redactSecrets(note));
    entry.skippedNote = note;
    const unmatched = unmatchedToolsNote([...all.tools, ...all.skipped].map((tool) => tool.name), entry.config.tools);
    if (unmatched !== null && unmatched !== entry.unmatchedNote) this.options.logger.warn('mcp: MCP server "%s": %s', entry.config.name, redactSecrets(unmatched));
    entry.unmatchedNote = unmatched;
    const registry = this.options.registry;
    const earlier = this.entries.slice(0, this.entries.indexOf(entry)).map((other) => other.config.name);
    this.unregisterTools(entry);
    this.forgetDownTools(entry);
    const definitions = buildToolDefinitions(
      {
        config: entry.config,
        live: () => (entry.live ? entry.connection : null),
        downReason: () => entry.error,
        onConnectionLost: (reason) => this.lost(entry, connection, reason),
      },
      listed.tools,
      connection.capabilities,
      (name) => registry.get(name) !== undefined || claimedByEarlier(name, earlier),
    );
    for (const definition of definitions) {
      try {
        registry.register(definition);
        entry.tools.push(definition.name);
      } catch (error) {
        // One malformed tool (its schema) does not cost the server its other tools.
        this.options.logger.warn('mcp: %s: tool %s was not registered: %s', entry.config.name, definition.name, errorMessage(error));
      }
    }
  }

  private async refreshTools(entry: ServerEntry, connection: McpConnection): Promise<void> {
    if (!entry.live || entry.connection !== connection) return;
    try {
      await this.registerTools(entry, connection);
      this.options.logger.info('mcp: %s changed its tools (%d now)', entry.config.name, entry.tools.length);
      this.changed();
    } catch (error) {
      this.options.logger.warn('mcp: %s: refreshing its tools after list_changed failed: %s', entry.config.name, errorMessage(error));
    }
  }

  /** With `goneReason` (the server went down), calls of its tools are told why instead of "Unknown tool". */
  private unregisterTools(entry: ServerEntry, goneReason?: string): void {
    if (goneReason === undefined) {
      for (const name of entry.tools) this.options.registry.unregister(name);
    } else {
      // Tools down since an earlier failure are told the latest reason too.
      entry.downTools.push(...entry.tools);
      for (const name of entry.downTools) if (this.options.registry.get(name) === undefined || entry.tools.includes(name)) this.options.registry.unregister(name, goneReason);
    }
    entry.tools = [];
  }

  /** The down tools' reasons go (the server is back with its current tools, or removed). */
  private forgetDownTools(entry: ServerEntry): void {
    for (const name of entry.downTools) if (this.options.registry.get(name) === undefined) this.options.registry.unregister(name);
    entry.downTools = [];
  }

  private settle(entry: ServerEntry): void {
    entry.settled = true;
    if (this.allSettled()) this.wakeWaiters();
  }

  private allSettled(): boolean {
    return !this.started || this.entries.every((entry) => entry.settled);
  }

  private wakeWaiters(): void {
    for (const wake of [...this.settledWaiters]) wake();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (error) {
        this.options.logger.error('mcp: a status listener failed: %s', errorMessage(error));
      }
    }
  }
}

export { testMcpServer } from './mcpServerTest.ts';
