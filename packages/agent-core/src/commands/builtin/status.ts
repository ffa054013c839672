import type { CommandInput } from '../commandTypes.ts';

export const statusCommand: CommandInput = {
  name: 'status',
  description: 'Show session, model, token and context info',
  category: 'Info',
  source: 'builtin',
  handler: async (_args, ctx) => ({ output: await ctx.status() }),
};
