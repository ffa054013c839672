import type { SessionService } from '../../liveSession/sessionService.ts';
import type { CommandInput } from '../commandTypes.ts';

export const historyCommand: CommandInput = {
  name: 'history',
  description: 'Show the conversation history',
  category: 'Session',
  source: 'builtin',
  handler: (_args, { session }: { session: Pick<SessionService, 'transcript'> }) => ({ output: session.transcript() }),
};
