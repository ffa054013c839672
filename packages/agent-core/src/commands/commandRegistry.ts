import { closestWord } from './fuzzyScore.ts';
import {
  CommandBusyError,
  CommandFailedError,
  CommandRegistrationError,
  UnknownCommandError,
} from './commandErrors.ts';
import {
  BUILTIN_SOURCE,
  type CatalogEntry,
  type Command,
  type CommandInput,
  type CommandScope,
} from './commandTypes.ts';
import type { CommandResult } from '../contract/commands.ts';
import { parseSlash } from '../contract/slash.ts';

const NAME = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * The one table of slash commands: built-ins and plugin commands alike. A name or alias belongs to one
 * command; a plugin cannot shadow a built-in or another plugin.
 */
export class CommandRegistry {
  private readonly commands = new Map<string, Command>();
  /** name and every alias → canonical name */
  private readonly words = new Map<string, string>();

  register(input: CommandInput): Command {
    const command = normalize(input);
    for (const word of [command.name, ...command.aliases]) {
      const owner = this.words.get(word);
      if (owner !== undefined) {
        const holder = this.commands.get(owner)!;
        throw new CommandRegistrationError(
          `Can't register /${command.name} from ${describeSource(command.source)}: ` +
            `/${word} is already taken by /${holder.name} from ${describeSource(holder.source)}.`,
        );
      }
    }
    this.commands.set(command.name, command);
    for (const word of [command.name, ...command.aliases]) this.words.set(word, command.name);
    return command;
  }

  /** By name or alias, case-insensitive, with or without the leading `/`. */
  resolve(nameOrAlias: string): Command | undefined {
    const word = nameOrAlias.trim().replace(/^\//, '').toLowerCase();
    const name = this.words.get(word);
    return name === undefined ? undefined : this.commands.get(name);
  }

  list(): Command[] {
    return [...this.commands.values()].sort((a, b) => compare(a.name, b.name));
  }

  catalog(): CatalogEntry[] {
    return this.list().map((c) => ({
      name: c.name,
      aliases: [...c.aliases],
      description: c.description,
      category: c.category,
      args_hint: c.argsHint,
      source: c.source,
    }));
  }

  /** The closest known name or alias to a mistyped one. */
  suggest(typed: string): string | undefined {
    return closestWord(typed, this.words.keys());
  }

  /**
   * Runs `/name args`. Throws UnknownCommandError (not a command, with a suggestion), CommandBusyError
   * (refused while a turn runs) or CommandFailedError (the handler threw).
   */
  async dispatch(text: string, scope: CommandScope): Promise<CommandResult> {
    const parsed = parseSlash(text);
    if (parsed === null) throw new UnknownCommandError('', undefined);
    const command = this.resolve(parsed.name);
    if (command === undefined) throw new UnknownCommandError(parsed.name, this.suggest(parsed.name));
    if (!command.runsWhileBusy && scope.session.busy) throw new CommandBusyError(command.name);
    try {
      return await command.handler(parsed.args, scope);
    } catch (error) {
      throw new CommandFailedError(command.name, command.source, error);
    }
  }
}

function normalize(input: CommandInput): Command {
  const name = cleanWord(input.name, input.source);
  const aliases = [...new Set((input.aliases ?? []).map((a) => cleanWord(a, input.source)))].filter((a) => a !== name);
  if (typeof input.handler !== 'function') {
    throw new CommandRegistrationError(`/${name} from ${describeSource(input.source)} has no handler function.`);
  }
  return {
    name,
    aliases,
    description: input.description.trim(),
    category: input.category ?? input.source,
    argsHint: input.argsHint ?? '',
    runsWhileBusy: input.runsWhileBusy ?? true,
    source: input.source,
    handler: input.handler,
  };
}

function cleanWord(raw: string, source: string): string {
  const word = raw.trim().replace(/^\//, '').toLowerCase();
  if (!NAME.test(word)) {
    throw new CommandRegistrationError(
      `Invalid command name "${raw}" from ${describeSource(source)}: use letters, digits, "-" or "_", with no spaces.`,
    );
  }
  return word;
}

function describeSource(source: string): string {
  return source === BUILTIN_SOURCE ? 'the built-ins' : `plugin ${source}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
