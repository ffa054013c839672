import type { SessionService } from '../../liveSession/sessionService.ts';
import type { CommandInput } from '../commandTypes.ts';

/**
 * Interrupts the running turn first (its partial reply is kept), then stops the composer's `!cmd`s and
 * background processes. The original TUI only did the background processes (NousResearch/hermes-agent#80745).
 */
export const stopCommand: CommandInput = {
  name: 'stop',
  description: 'Stop the running turn or !cmd and background processes',
  category: 'Session',
  runsWhileBusy: true,
  source: 'builtin',
  handler: async (_args, { session }: { session: Pick<SessionService, 'interrupt' | 'stopShells' | 'stopProcesses'> }) => {
    const interrupted = session.interrupt();
    // Answered once each `!cmd` has answered, so its row (marked stopped) comes before this reply.
    const shells = session.stopShells();
    const stopped = session.stopProcesses();
    const shellsStopped = await shells;
    if (!interrupted && shellsStopped === 0 && stopped === 0) return { output: 'Nothing to stop: no turn running, no background processes.' };
    const parts = [
      ...(shellsStopped > 0 ? [`stopped the running !cmd${shellsStopped === 1 ? '' : 's'}`] : []),
      interrupted === 'compress'
        ? 'stopped the compression (the conversation is unchanged)'
        : interrupted
          ? 'interrupted the running turn (partial reply kept)'
          : 'no turn was running',
      stopped === 0
        ? 'no background processes to stop'
        : `stopped ${stopped} background process${stopped === 1 ? '' : 'es'}`,
    ];
    const text = parts.join('; ');
    return { output: `${text[0]!.toUpperCase()}${text.slice(1)}.` };
  },
};
