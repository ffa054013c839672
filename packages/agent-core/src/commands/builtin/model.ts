import type { CommandInput } from '../commandTypes.ts';

/** Runs while busy: the session layer applies a switch from the next model call, never mid-stream. */
export const modelCommand: CommandInput = {
  name: 'model',
  description: 'Show or switch the model for this session',
  category: 'Configuration',
  argsHint: '[model]',
  source: 'builtin',
  handler: async (args, ctx) => {
    if (!args) return { output: `Model: ${await ctx.model()}`, directive: { type: 'picker', picker: 'model' } };
    const now = await ctx.setModel(args);
    return { output: `Model set to ${now}${ctx.isBusy() ? ' (from the next model call)' : ''}.` };
  },
};
