import type { SessionService } from '../../liveSession/sessionService.ts';
import type { CommandInput } from '../commandTypes.ts';

export const titleCommand: CommandInput = {
  name: 'title',
  description: 'Show or set the session title',
  category: 'Session',
  argsHint: '[name]',
  source: 'builtin',
  handler: (args, { session }: { session: Pick<SessionService, 'title' | 'setTitle'> }) => {
    if (args) return { output: `Title set to "${session.setTitle(args)}".` };
    const title = session.title;
    return { output: title ? `Title: ${title}` : 'This session has no title. Set one with /title <name>.' };
  },
};
