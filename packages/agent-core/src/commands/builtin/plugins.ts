import type { CommandHost, CommandInput } from '../commandTypes.ts';

export const pluginsCommand: CommandInput = {
  name: 'plugins',
  description: 'List plugins',
  category: 'Tools & Skills',
  source: 'builtin',
  handler: (_args, { host }: { host: Pick<CommandHost, 'listPlugins'> }) => ({ output: host.listPlugins() }),
};
