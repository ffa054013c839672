/**
 * MCP servers as tools: connects every enabled server in the background, registers its tools in the
 * one ToolRegistry and keeps them in step with the server (docs/mcp.md).
 */
import type { McpServerStatus } from '../contract/mcp.ts';
import type { Logger } from '../logging/logger.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { McpServerConfig } from './mcpConfig.ts';

export interface McpManagerOptions {
  servers: McpServerConfig[];
  discoveryTimeoutS: number;
  registry: ToolRegistry;
  env: Record<string, string | undefined>;
  logger: Logger;
}

export class McpManager {
  private servers: McpServerConfig[];
  private discoveryTimeoutS: number;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: McpManagerOptions) {
    this.servers = options.servers;
    this.discoveryTimeoutS = options.discoveryTimeoutS;
  }

  /** Connects every enabled server in the background; never throws, never blocks. */
  start(): void {}

  /** One status per configured server, in config order. */
  statuses(): McpServerStatus[] {
    return this.servers.map((server) => ({
      name: server.name,
      status: server.enabled ? 'connecting' : 'disabled',
      tool_count: 0,
      error: null,
      transport: server.transport,
      target: server.command ? [server.command, ...server.args].join(' ') : (server.url ?? ''),
      tools: [],
    }));
  }

  /** Called when a status or the tool set changed; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves when every enabled server has settled (connected or failed), or after `timeoutMs` (default: mcp_discovery_timeout). */
  async whenDiscovered(timeoutMs: number = this.discoveryTimeoutS * 1000): Promise<void> {
    void timeoutMs;
  }

  /** Applies edited config: closes removed or changed servers, starts new ones; resolves with the statuses once settled. */
  async reload(servers: McpServerConfig[], discoveryTimeoutS?: number): Promise<McpServerStatus[]> {
    this.servers = servers;
    if (discoveryTimeoutS !== undefined) this.discoveryTimeoutS = discoveryTimeoutS;
    return this.statuses();
  }

  /** Closes every client and kills the stdio servers. */
  async close(): Promise<void> {}
}

/** Connects to one server, lists its tools and disconnects (`hermes mcp test`). */
export async function testMcpServer(
  server: McpServerConfig,
  env: Record<string, string | undefined>,
  options: { timeoutMs?: number } = {},
): Promise<{ ok: boolean; tools: string[]; latency_ms: number; error?: string }> {
  void server;
  void env;
  void options;
  return { ok: false, tools: [], latency_ms: 0, error: 'not implemented yet' };
}
