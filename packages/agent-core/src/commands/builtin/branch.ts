import type { CommandInput } from '../commandTypes.ts';

export const branchCommand: CommandInput = {
  name: 'branch',
  aliases: ['fork'],
  description: 'Branch the current session into a new one',
  category: 'Session',
  argsHint: '[name]',
  runsWhileBusy: false,
  source: 'builtin',
  handler: async (args, ctx) => {
    const id = await ctx.branch(args || undefined);
    return {
      output: args ? `Branched into "${args}" (${id}).` : `Branched into ${id}.`,
      directive: { type: 'resume', session_id: id },
    };
  },
};
