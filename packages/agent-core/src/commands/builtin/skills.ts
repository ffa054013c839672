import type { CommandInput } from '../commandTypes.ts';

export const skillsCommand: CommandInput = {
  name: 'skills',
  description: 'List skills',
  category: 'Tools & Skills',
  source: 'builtin',
  handler: async (_args, ctx) => ({ output: await ctx.listSkills() }),
};
