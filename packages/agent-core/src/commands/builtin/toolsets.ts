import type { CommandInput } from '../commandTypes.ts';

export const toolsetsCommand: CommandInput = {
  name: 'toolsets',
  description: 'List toolsets',
  category: 'Tools & Skills',
  source: 'builtin',
  handler: async (_args, ctx) => ({ output: await ctx.listToolsets() }),
};
