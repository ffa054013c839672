import type { SessionService } from '../../liveSession/sessionService.ts';
import type { CommandInput } from '../commandTypes.ts';

export const yoloCommand: CommandInput = {
  name: 'yolo',
  description: 'Toggle skipping all approval prompts (or set it: on, off)',
  category: 'Configuration',
  argsHint: '[on|off]',
  source: 'builtin',
  handler: (args, { session }: { session: Pick<SessionService, 'toggleYolo' | 'setYolo'> }) => {
    const word = args.trim().toLowerCase();
    // `/yolo on` sets it on whatever it was: a toggle would turn it off when it already was.
    if (word !== '' && word !== 'on' && word !== 'off') return { warning: `/yolo takes on or off (or nothing, to toggle), not "${args.trim()}".` };
    const on = word === '' ? session.toggleYolo() : session.setYolo(word === 'on');
    return on
      ? { warning: 'YOLO on: commands and edits run without asking. /yolo again to turn it off.' }
      : { output: 'YOLO off: risky commands and edits ask for approval again.' };
  },
};
