import type { CommandInput } from '../commandTypes.ts';

export const quitCommand: CommandInput = {
  name: 'quit',
  aliases: ['exit'],
  description: 'Exit hermes',
  category: 'Exit',
  source: 'builtin',
  handler: () => ({ exit: true }),
};
