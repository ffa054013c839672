import type { SessionService } from '../../liveSession/sessionService.ts';
import type { CommandInput } from '../commandTypes.ts';

export const usageCommand: CommandInput = {
  name: 'usage',
  description: 'Show token usage and cost for this session',
  category: 'Info',
  source: 'builtin',
  handler: (_args, { session }: { session: Pick<SessionService, 'usage'> }) => ({ output: session.usage() }),
};
