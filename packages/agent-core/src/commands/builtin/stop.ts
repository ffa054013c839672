import type { SessionService } from '../../liveSession/sessionService.ts';
import type { CommandInput } from '../commandTypes.ts';

/**
 * Interrupts the running turn first (its partial reply is kept), then stops background processes.
 * The original TUI only did the second half (NousResearch/hermes-agent#80745).
 */
export const stopCommand: CommandInput = {
  name: 'stop',
  description: 'Interrupt the running turn and stop background processes',
  category: 'Session',
  runsWhileBusy: true,
  source: 'builtin',
  handler: (_args, { session }: { session: Pick<SessionService, 'interrupt' | 'stopProcesses'> }) => {
    const interrupted = session.interrupt();
    const stopped = session.stopProcesses();
    if (!interrupted && stopped === 0) return { output: 'Nothing to stop: no turn running, no background processes.' };
    const parts = [
      interrupted === 'compress'
        ? 'Stopped the compression (the conversation is unchanged)'
        : interrupted
          ? 'Interrupted the running turn (partial reply kept)'
          : 'No turn was running',
      stopped === 0
        ? 'no background processes to stop'
        : `stopped ${stopped} background process${stopped === 1 ? '' : 'es'}`,
    ];
    return { output: `${parts.join('; ')}.` };
  },
};
