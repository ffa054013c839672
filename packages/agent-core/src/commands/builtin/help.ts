import type { CatalogEntry, CommandInput } from '../commandTypes.ts';
import { formatHelp } from '../helpText.ts';

/** /help reads the live catalog, so plugin commands appear (under their plugin) as soon as they register. */
export function helpCommand(catalog: () => CatalogEntry[]): CommandInput {
  return {
    name: 'help',
    description: 'Show commands, or the usage of one',
    category: 'Info',
    argsHint: '[command|filter]',
    source: 'builtin',
    handler: (args) => ({ output: formatHelp(catalog(), args) }),
  };
}
