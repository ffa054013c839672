import type { SessionService } from '../../liveSession/sessionService.ts';
import type { CommandInput } from '../commandTypes.ts';

export const retryCommand: CommandInput = {
  name: 'retry',
  description: 'Resend the last message',
  category: 'Session',
  runsWhileBusy: false,
  source: 'builtin',
  handler: (_args, { session }: { session: Pick<SessionService, 'retry'> }) => {
    const message = session.retry();
    if (message === null) return { warning: 'Nothing to retry: no message has been sent in this session.' };
    return { directive: { type: 'send', message } };
  },
};
