import type { SessionService } from '../../liveSession/sessionService.ts';
import type { CommandInput } from '../commandTypes.ts';

export const statusCommand: CommandInput = {
  name: 'status',
  description: 'Show session, model, token and context info',
  category: 'Info',
  source: 'builtin',
  handler: (_args, { session }: { session: Pick<SessionService, 'status'> }) => ({ output: session.status() }),
};
