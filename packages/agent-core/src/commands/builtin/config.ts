import type { SessionService } from '../../liveSession/sessionService.ts';
import type { CommandInput } from '../commandTypes.ts';

export const configCommand: CommandInput = {
  name: 'config',
  description: 'Show the configuration, or one key',
  category: 'Configuration',
  argsHint: '[key]',
  source: 'builtin',
  handler: (args, { session }: { session: Pick<SessionService, 'config'> }) => ({ output: session.config(args || undefined) }),
};
