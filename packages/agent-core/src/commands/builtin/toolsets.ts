import type { CommandHost, CommandInput } from '../commandTypes.ts';

export const toolsetsCommand: CommandInput = {
  name: 'toolsets',
  description: 'List toolsets',
  category: 'Tools & Skills',
  source: 'builtin',
  handler: (_args, { host }: { host: Pick<CommandHost, 'listToolsets'> }) => ({ output: host.listToolsets() }),
};
