import type { CommandInput } from '../commandTypes.ts';

export const configCommand: CommandInput = {
  name: 'config',
  description: 'Show the configuration, or one key',
  category: 'Configuration',
  argsHint: '[key]',
  source: 'builtin',
  handler: async (args, ctx) => ({ output: await ctx.config(args || undefined) }),
};
