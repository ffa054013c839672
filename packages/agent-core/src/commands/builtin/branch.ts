import type { SessionService } from '../../liveSession/sessionService.ts';
import type { CommandHost, CommandInput } from '../commandTypes.ts';

type Needs = { session: Pick<SessionService, 'branch' | 'id'>; host: Pick<CommandHost, 'openBranch'> };

/** Reports the branch's stored id (what /status shows and --resume takes); the directive carries the wire id to switch to. */
export const branchCommand: CommandInput = {
  name: 'branch',
  aliases: ['fork'],
  description: 'Branch the current session into a new one',
  category: 'Session',
  argsHint: '[name]',
  runsWhileBusy: false,
  source: 'builtin',
  handler: async (args, { session, host }: Needs) => {
    const branched = session.branch(args || undefined);
    const wireId = await host.openBranch(branched, session.id);
    return {
      output: args ? `Branched into "${args}" (${branched.id}).` : `Branched into ${branched.id}.`,
      directive: { type: 'resume', session_id: wireId },
    };
  },
};
