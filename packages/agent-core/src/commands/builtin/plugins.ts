import type { CommandInput } from '../commandTypes.ts';

export const pluginsCommand: CommandInput = {
  name: 'plugins',
  description: 'List plugins',
  category: 'Tools & Skills',
  source: 'builtin',
  handler: async (_args, ctx) => ({ output: await ctx.listPlugins() }),
};
