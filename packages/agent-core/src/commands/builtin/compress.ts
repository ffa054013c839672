import type { SessionService } from '../../liveSession/sessionService.ts';
import type { CommandInput } from '../commandTypes.ts';

export const compressCommand: CommandInput = {
  name: 'compress',
  aliases: ['compact'],
  description: 'Compress the conversation context, optionally around a topic',
  category: 'Session',
  argsHint: '[focus topic]',
  runsWhileBusy: false,
  source: 'builtin',
  handler: async (args, { session }: { session: Pick<SessionService, 'compress'> }) => {
    const r = await session.compress(args || undefined);
    if (r.removed === 0) return { output: 'Nothing to compress yet.' };
    return {
      output:
        `Compressed ${r.removed} message${r.removed === 1 ? '' : 's'}: ` +
        `${r.beforeTokens.toLocaleString('en-US')} → ${r.afterTokens.toLocaleString('en-US')} tokens.`,
    };
  },
};
