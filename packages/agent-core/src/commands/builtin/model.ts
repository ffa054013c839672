import type { SessionService } from '../../liveSession/sessionService.ts';
import type { CommandInput } from '../commandTypes.ts';

/** Runs while busy: the service applies a switch when the running turn ends, never mid-stream. */
export const modelCommand: CommandInput = {
  name: 'model',
  description: 'Show or switch the model for this session',
  category: 'Configuration',
  argsHint: '[model]',
  source: 'builtin',
  handler: (args, { session }: { session: Pick<SessionService, 'modelLabel' | 'setModel'> }) => {
    if (!args) return { output: `Model: ${session.modelLabel}`, directive: { type: 'picker', picker: 'model' } };
    const { value, deferred } = session.setModel(args);
    return { output: `Model set to ${value}${deferred ? ' (from the next turn)' : ''}.` };
  },
};
