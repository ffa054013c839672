import type { CommandInput } from '../commandTypes.ts';

export const retryCommand: CommandInput = {
  name: 'retry',
  description: 'Resend the last message',
  category: 'Session',
  runsWhileBusy: false,
  source: 'builtin',
  handler: async (_args, ctx) => {
    const message = await ctx.retry();
    if (message === null) return { warning: 'Nothing to retry: no message has been sent in this session.' };
    return { directive: { type: 'send', message } };
  },
};
