import type { SessionService } from '../../liveSession/sessionService.ts';
import type { CommandInput } from '../commandTypes.ts';

export const undoCommand: CommandInput = {
  name: 'undo',
  description: 'Back up N user turns and put the prompt back in the composer',
  category: 'Session',
  argsHint: '[N]',
  runsWhileBusy: false,
  source: 'builtin',
  handler: (args, { session }: { session: Pick<SessionService, 'undo'> }) => {
    const turns = args === '' ? 1 : Number(args);
    if (!Number.isInteger(turns) || turns < 1) {
      return { warning: `/undo takes a whole number of turns (1 or more), not "${args}".` };
    }
    const { removed, text } = session.undo(turns);
    if (removed === 0) return { warning: 'Nothing to undo.' };
    return {
      output: `Removed ${removed} turn${removed === 1 ? '' : 's'}.`,
      directive: { type: 'prefill', text },
    };
  },
};
