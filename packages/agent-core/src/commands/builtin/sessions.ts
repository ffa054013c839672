import type { CommandInput } from '../commandTypes.ts';

export const sessionsCommand: CommandInput = {
  name: 'sessions',
  description: 'Browse and resume sessions',
  category: 'Session',
  source: 'builtin',
  handler: () => ({ directive: { type: 'picker', picker: 'sessions' } }),
};
