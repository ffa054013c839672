import type { CommandInput } from '../commandTypes.ts';

export const titleCommand: CommandInput = {
  name: 'title',
  description: 'Show or set the session title',
  category: 'Session',
  argsHint: '[name]',
  source: 'builtin',
  handler: async (args, ctx) => {
    const title = await ctx.title(args || undefined);
    if (args) return { output: `Title set to "${title ?? args}".` };
    return { output: title ? `Title: ${title}` : 'This session has no title. Set one with /title <name>.' };
  },
};
