import type { CommandHost, CommandInput } from '../commandTypes.ts';

export const clearCommand: CommandInput = {
  name: 'clear',
  description: 'Clear the screen and start a new session',
  category: 'Session',
  runsWhileBusy: false,
  source: 'builtin',
  handler: async (_args, { host }: { host: Pick<CommandHost, 'newSession'> }) => {
    const id = await host.newSession();
    return { output: 'Started a new session.', directive: { type: 'new', session_id: id, clear: true } };
  },
};
