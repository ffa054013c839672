/** What the manager and `hermes mcp test` share: the connect spec of a server, the tools it offers, how it is named. */
import { toolEnvironment } from '../secrets/toolEnvironment.ts';
import type { McpServerConfig } from './mcpConfig.ts';
import type { ConnectSpec, McpTool, SkippedTool } from './mcpConnection.ts';
import { selectTools, withinCaps } from './mcpTools.ts';

/**
 * What connect needs: the config with its secrets resolved; a stdio server's environment is the tool
 * environment (`childEnv`; default: this process's, minus provider keys) plus its own `env`.
 */
export function connectSpec(
  server: McpServerConfig,
  secrets: { env: Record<string, string>; headers: Record<string, string> },
  childEnv: Record<string, string> | undefined,
  connectTimeoutMs: number,
): ConnectSpec {
  return {
    ...server,
    env: { ...(childEnv ?? toolEnvironment(process.env, { dotenvNames: [] })), ...secrets.env },
    headers: secrets.headers,
    connectTimeoutMs,
  };
}

/** The listed tools the config selects that can be offered, and the selected ones that cannot (with why). */
export function offeredTools(listed: { tools: McpTool[]; skipped: SkippedTool[] }, config: McpServerConfig): { tools: McpTool[]; skipped: SkippedTool[] } {
  const capped = withinCaps(selectTools(listed.tools, config.tools));
  return { tools: capped.tools, skipped: [...selectTools(listed.skipped, config.tools), ...capped.skipped] };
}

/** The command line or URL, never env or header values. */
export function targetOf(config: McpServerConfig): string {
  return config.command ? [config.command, ...config.args].join(' ') : (config.url ?? '');
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

