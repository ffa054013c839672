import type { McpServerStatus } from '../../contract/mcp.ts';
import type { CommandHost, CommandInput } from '../commandTypes.ts';

/** One server: status mark, name, status, tool count, how it is reached; a failed one's error below it. */
export function mcpStatusText(s: McpServerStatus): string {
  const mark = s.status === 'connected' ? '●' : s.status === 'failed' ? '✗' : '○';
  return `${mark} ${s.name} — ${s.status}, ${s.tool_count} tool(s) (${s.transport}: ${s.target})${s.error ? `\n    ${s.error}` : ''}${s.note ? `\n    note: ${s.note}` : ''}`;
}

export const NO_MCP_SERVERS =
  'No MCP servers. Add one under mcp_servers: in config.yaml (or `hermes mcp add <name> --command <cmd> | --url <url>`), then /reload-mcp.';

export const mcpCommand: CommandInput = {
  name: 'mcp',
  description: 'List MCP servers: status, tools, error',
  category: 'Tools & Skills',
  source: 'builtin',
  handler: (_args, { host }: { host: Pick<CommandHost, 'mcpServers'> }) => {
    const servers = host.mcpServers();
    return { output: servers.length ? servers.map(mcpStatusText).join('\n') : NO_MCP_SERVERS };
  },
};
