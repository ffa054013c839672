import type { CommandInput } from '../commandTypes.ts';

/** The client owns session switching: a name goes to session.resume, none opens the picker. */
export const resumeCommand: CommandInput = {
  name: 'resume',
  description: 'Resume a session by title or id',
  category: 'Session',
  argsHint: '[name|id]',
  source: 'builtin',
  handler: (args) =>
    args
      ? { directive: { type: 'resume', target: args } }
      : { directive: { type: 'picker', picker: 'sessions' } },
};
