/** Test-only: `mcp_servers` entries (as parsed) for the test servers in scripts/mcp-servers/, and a manager over a fresh registry. */
import { format } from 'node:util';
import { onCleanup } from '../../../../scripts/testing/tempDirs.ts';
import { stdioTestServer, type StdioMode } from '../../../../scripts/mcp-servers/launch.ts';
import type { Logger } from '../logging/logger.ts';
import { ToolRegistry } from '../tools/registry.ts';
import { MCP_DEFAULTS, type McpServerConfig } from './mcpConfig.ts';
import { McpManager, type McpManagerOptions } from './mcpManager.ts';

export function serverConfig(name: string, overrides: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    name,
    enabled: true,
    transport: 'stdio',
    args: [],
    env: {},
    headers: {},
    timeoutS: MCP_DEFAULTS.timeoutS,
    connectTimeoutS: 20,
    tools: { resources: true, prompts: true },
    supportsParallelToolCalls: false,
    approval: 'auto',
    ...overrides,
  };
}

/** The stdio test server as a configured server. */
export function stdioServerConfig(name: string, mode?: StdioMode, overrides: Partial<McpServerConfig> = {}): McpServerConfig {
  return serverConfig(name, { ...stdioTestServer(mode), ...overrides });
}

/** A logger that keeps its lines (formatted like the file logger's), for tests that read what was reported. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (message: string, ...args: unknown[]) => void lines.push(`${level} ${format(message, ...args)}`);
  return { lines, debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') };
}

/** A started manager over a fresh registry, closed when the test ends. */
export function startedManager(servers: McpServerConfig[], options: Partial<McpManagerOptions> = {}) {
  const registry = options.registry ?? new ToolRegistry();
  const logger = memoryLogger();
  const manager = new McpManager({ servers, discoveryTimeoutS: 30, registry, env: {}, logger, retry: { firstMs: 200, maxMs: 2_000 }, ...options });
  onCleanup(() => manager.close());
  manager.start();
  return { manager, registry, logger };
}

/** Resolves once `check` holds after a change of the manager (or at once); rejects after `ms`. */
export function untilManager(manager: McpManager, check: () => boolean, what: string, ms = 20_000): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`timed out waiting for: ${what}; statuses: ${JSON.stringify(manager.statuses())}`));
    }, ms);
    const stop = manager.onChange(() => {
      if (!check()) return;
      clearTimeout(timer);
      stop();
      resolve();
    });
  });
}
