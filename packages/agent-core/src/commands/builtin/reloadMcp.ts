import type { CommandHost, CommandInput } from '../commandTypes.ts';

export const reloadMcpCommand: CommandInput = {
  name: 'reload-mcp',
  aliases: ['reload_mcp'],
  description: "Re-read config.yaml's mcp_servers and reconnect MCP servers",
  category: 'Tools & Skills',
  source: 'builtin',
  handler: async (_args, { host }: { host: Pick<CommandHost, 'reloadMcp'> }) => ({ output: await host.reloadMcp() }),
};
