/**
 * MCP servers as the front end sees them: the one MCP reload (`/reload-mcp`, `reload.mcp`), the
 * `session.info` that follows a server's change, and `mcp.test`. Connections, tools and retries are
 * agent-core's `McpManager` (runtime.mcp); this only re-reads config.yaml and tells the sessions.
 */
import path from 'node:path';
import type { Handler, HandlerTable } from '../handlers/context.ts';
import type { Method } from '../protocol/index.ts';
import { formatProblem, loadConfig, mcpStatusText, parseMcpServers, testMcpServer, UsageError, type HermesRuntime, type McpServerConfig, type McpServerStatus } from '@hermes/agent-core';

/** Sessions the front end tells about a change (their `session.info`). */
interface InfoTargets {
  all(): { service: { publishInfo(): void } }[];
}

/**
 * How long a burst of server changes (several servers connecting at a start, a reload) is gathered
 * into one `session.info` per session: long enough to cover one event-loop burst, short against a connect.
 */
export const MCP_INFO_COALESCE_MS = 50;

/**
 * Sends `session.info` to every open session when a server's status or tool set changes, at most
 * once per MCP_INFO_COALESCE_MS. Returns the unsubscribe.
 */
export function publishMcpChanges(runtime: HermesRuntime, sessions: InfoTargets): () => void {
  let timer: NodeJS.Timeout | undefined;
  const unsubscribe = runtime.mcp.onChange(() => {
    timer ??= setTimeout(() => {
      timer = undefined;
      for (const live of sessions.all()) live.service.publishInfo();
    }, MCP_INFO_COALESCE_MS);
  });
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}

/** Methods after whose answer the servers start: the client has its session and its first `session.info`. */
const OPENING_METHODS = ['session.create', 'session.resume', 'session.branch'] as const;
/** Methods that need the servers started before they are served (reload.mcp starts them itself). */
const NEEDING_METHODS = ['prompt.submit', 'mcp.list'] as const;

/**
 * Starts the MCP servers (once) after the client's first session has opened, or before a method that
 * needs them, whichever comes first: never during the client's own start. Started at gateway.ready,
 * the servers' start (the SDK loaded, each server's process booting) took the CPU the TUI needed to
 * draw its prompt, and the usable prompt came 15% later with three servers (scripts/bench/mcp.ts).
 * A client that opens no session (`hermes plugins`, `hermes sessions`) starts none.
 */
export function startMcpWithFirstSession(table: HandlerTable, start: () => void): void {
  const wrap = <M extends Method>(method: M, when: 'after' | 'before') => {
    const handler = table[method] as Handler<M> | undefined;
    if (!handler) return;
    const wrapped: Handler<M> = (params) => {
      if (when === 'before') start();
      const result = handler(params);
      // After the answer and the session.info it schedules (openLive's setImmediate, queued first). A
      // session that failed to open starts nothing; its error is answered from `result` as always.
      if (when === 'after') void Promise.resolve(result).then(() => setImmediate(start), () => undefined);
      return result;
    };
    (table as Record<M, Handler<M>>)[method] = wrapped;
  };
  for (const method of OPENING_METHODS) wrap(method, 'after');
  for (const method of NEEDING_METHODS) wrap(method, 'before');
}

/**
 * config.yaml's MCP settings as the file says now. A file that cannot be read as settings (not YAML,
 * unreadable) is refused rather than read as "no servers", which would drop every server.
 */
export function readMcpConfig(home: string): { servers: McpServerConfig[]; discoveryTimeoutS: number; problems: string[]; raw: unknown } {
  const loaded = loadConfig(home);
  const fatal = loaded.problems.find((p) => p.kind === 'syntax' || p.kind === 'unreadable');
  if (fatal) throw new UsageError(`${formatProblem(fatal)} — the MCP servers were left as they were.`);
  // Parsed again from the file's data for the MCP problems alone (loadConfig's list has every setting's).
  const { servers, discoveryTimeoutS, problems } = parseMcpServers(loaded.config.raw, path.join(home, 'config.yaml'));
  return { servers, discoveryTimeoutS, problems: problems.map(formatProblem), raw: loaded.config.raw.mcp_servers };
}

/**
 * THE MCP reload: config.yaml is read again and the manager applies it (removed servers stop, new ones
 * start, changed and failed ones restart, unchanged ones keep their connection). The config in memory follows the file, so
 * `/config mcp_servers` and `config.get` agree with it. Resolves with a summary for the user once
 * the servers have settled (or the discovery timeout passed); `session.info` goes to every session.
 */
export async function reloadMcp(runtime: HermesRuntime, sessions: InfoTargets): Promise<string> {
  const fresh = readMcpConfig(runtime.home);
  const { config } = runtime.loaded;
  config.mcp_servers = fresh.servers;
  config.mcp_discovery_timeout = fresh.discoveryTimeoutS;
  if (fresh.raw === undefined) delete config.raw.mcp_servers;
  else config.raw.mcp_servers = fresh.raw;
  const statuses = await runtime.mcp.reload(fresh.servers, fresh.discoveryTimeoutS);
  for (const live of sessions.all()) live.service.publishInfo();
  return reloadSummary(statuses, fresh.problems);
}

function reloadSummary(statuses: McpServerStatus[], problems: string[]): string {
  const lines = [statuses.length ? `Reloaded ${statuses.length} MCP server(s):` : 'Reloaded: config.yaml has no MCP servers.'];
  lines.push(...statuses.map(mcpStatusText));
  if (problems.length) lines.push('config.yaml problems:', ...problems.map((p) => `  ${p}`));
  return lines.join('\n');
}

/** `mcp.test`: one server of config.yaml as the file says now, connected once with its connect_timeout. */
export async function testConfiguredServer(runtime: HermesRuntime, name: string): Promise<Awaited<ReturnType<typeof testMcpServer>>> {
  const { servers } = readMcpConfig(runtime.home);
  const server = servers.find((s) => s.name === name);
  if (!server) {
    throw new UsageError(`config.yaml has no usable MCP server named "${name}" (configured: ${servers.map((s) => s.name).join(', ') || 'none'}; a server with a mistake is left out, see its config problem).`);
  }
  // As a session's servers get it: the process environment wins over $HERMES_HOME/.env.
  return testMcpServer(server, { ...runtime.loaded.dotenv, ...process.env }, { timeoutMs: server.connectTimeoutS * 1000 });
}
