import type { CommandHost, CommandInput } from '../commandTypes.ts';

export const reloadPluginsCommand: CommandInput = {
  name: 'reload-plugins',
  aliases: ['reload_plugins'],
  description: 'Reload plugins and their commands',
  category: 'Tools & Skills',
  source: 'builtin',
  handler: async (_args, { host }: { host: Pick<CommandHost, 'reloadPlugins'> }) => ({ output: await host.reloadPlugins() }),
};
