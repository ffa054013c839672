import type { CommandHost, CommandInput } from '../commandTypes.ts';

export const reloadMcpCommand: CommandInput = {
  name: 'reload-mcp',
  aliases: ['reload_mcp'],
  description: 'Reload MCP servers from config.yaml',
  category: 'Tools & Skills',
  source: 'builtin',
  handler: async (_args, { host }: { host: Pick<CommandHost, 'reloadMcp'> }) => ({ output: await host.reloadMcp() }),
};
