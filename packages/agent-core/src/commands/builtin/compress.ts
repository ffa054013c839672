import type { CommandInput } from '../commandTypes.ts';

export const compressCommand: CommandInput = {
  name: 'compress',
  aliases: ['compact'],
  description: 'Compress the conversation context, optionally around a topic',
  category: 'Session',
  argsHint: '[focus topic]',
  runsWhileBusy: false,
  source: 'builtin',
  handler: async (args, ctx) => {
    const r = await ctx.compress(args || undefined);
    if (r.removed === 0) return { output: 'Nothing to compress yet.' };
    return {
      output:
        `Compressed ${r.removed} message${r.removed === 1 ? '' : 's'}: ` +
        `${r.before_tokens.toLocaleString('en-US')} → ${r.after_tokens.toLocaleString('en-US')} tokens.`,
    };
  },
};
