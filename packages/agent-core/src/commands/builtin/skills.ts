import type { CommandHost, CommandInput } from '../commandTypes.ts';

export const skillsCommand: CommandInput = {
  name: 'skills',
  description: 'List skills',
  category: 'Tools & Skills',
  source: 'builtin',
  handler: (_args, { host }: { host: Pick<CommandHost, 'listSkills'> }) => ({ output: host.listSkills() }),
};
