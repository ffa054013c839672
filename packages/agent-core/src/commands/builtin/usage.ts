import type { CommandInput } from '../commandTypes.ts';

export const usageCommand: CommandInput = {
  name: 'usage',
  description: 'Show token usage and cost for this session',
  category: 'Info',
  source: 'builtin',
  handler: async (_args, ctx) => ({ output: await ctx.usage() }),
};
