import type { CommandInput } from '../commandTypes.ts';

export const historyCommand: CommandInput = {
  name: 'history',
  description: 'Show the conversation history',
  category: 'Session',
  source: 'builtin',
  handler: async (_args, ctx) => ({ output: await ctx.history() }),
};
