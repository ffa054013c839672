import type { SessionService } from '../../liveSession/sessionService.ts';
import type { CommandInput } from '../commandTypes.ts';

export const yoloCommand: CommandInput = {
  name: 'yolo',
  description: 'Toggle skipping all approval prompts',
  category: 'Configuration',
  source: 'builtin',
  handler: (_args, { session }: { session: Pick<SessionService, 'toggleYolo'> }) => {
    const on = session.toggleYolo();
    return on
      ? { warning: 'YOLO on: commands and edits run without asking. /yolo again to turn it off.' }
      : { output: 'YOLO off: risky commands and edits ask for approval again.' };
  },
};
