import type { CommandHost, CommandInput } from '../commandTypes.ts';

export const newCommand: CommandInput = {
  name: 'new',
  aliases: ['reset'],
  description: 'Start a new session (fresh id and history)',
  category: 'Session',
  argsHint: '[title]',
  runsWhileBusy: false,
  source: 'builtin',
  handler: async (args, { host }: { host: Pick<CommandHost, 'newSession'> }) => {
    const id = await host.newSession(args || undefined);
    return {
      output: args ? `Started a new session "${args}".` : 'Started a new session.',
      directive: { type: 'new', session_id: id, clear: false },
    };
  },
};
