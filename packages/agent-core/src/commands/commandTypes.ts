/** The shapes shared by the slash-command registry, its built-ins and the session layer that runs them. */
import type { CommandDirective, CommandResult } from '../contract/commands.ts';

export type Awaitable<T> = T | Promise<T>;

/** What a command answers (text, and a directive for the client) is defined once, in the contract. */
export type { CommandDirective, CommandResult };

export type ApprovalsMode = 'manual' | 'smart' | 'off';
export const APPROVALS_MODES: readonly ApprovalsMode[] = ['manual', 'smart', 'off'];

/**
 * What built-in commands may do to the session they run in. The session layer (rpc-server) implements it;
 * methods return text for the user unless the result needs to be shaped into a directive.
 */
export interface CommandContext {
  /** A turn is running in this session. */
  isBusy(): boolean;
  /** Interrupt the running turn, keeping the partial reply. False when no turn was running. */
  interrupt(): boolean;
  /** Kill this session's background processes; returns how many were stopped. */
  stopProcesses(): Awaitable<number>;
  /** Start a fresh session (optionally titled); returns its id. */
  newSession(title?: string): Awaitable<string>;
  /** Drop the last `turns` user turns; `text` is the earliest removed prompt (empty when nothing was removed). */
  undo(turns: number): Awaitable<{ removed: number; text: string }>;
  /** Drop the last exchange and return its user message for resending; null when there is none. */
  retry(): Awaitable<string | null>;
  /** Set the title when given; returns the title now in effect (null when untitled). */
  title(text?: string): Awaitable<string | null>;
  /** Copy this session into a new one; returns the new session's id. */
  branch(name?: string): Awaitable<string>;
  compress(topic?: string): Awaitable<{ removed: number; before_tokens: number; after_tokens: number }>;
  usage(): Awaitable<string>;
  /** Current model description. */
  model(): Awaitable<string>;
  /** Switch model for this session from the next model call; returns what is now in effect. */
  setModel(value: string): Awaitable<string>;
  listTools(): Awaitable<string>;
  listToolsets(): Awaitable<string>;
  /** Flip skip-all-approvals; returns the new state. */
  toggleYolo(): Awaitable<boolean>;
  /** Set the persistent approval mode when given; returns the mode now in effect. */
  approvalsMode(mode?: ApprovalsMode): Awaitable<ApprovalsMode>;
  status(): Awaitable<string>;
  /** The whole configuration, or one dotted key. */
  config(key?: string): Awaitable<string>;
  listPlugins(): Awaitable<string>;
  listSkills(): Awaitable<string>;
  /** Reload plugins (their commands are re-registered); returns a summary. */
  reloadPlugins(): Awaitable<string>;
  /** Export the conversation; returns the written path. */
  save(format: SaveFormat, filename?: string): Awaitable<string>;
  history(): Awaitable<string>;
}

export type SaveFormat = 'md' | 'json' | 'html';
export const SAVE_FORMATS: readonly SaveFormat[] = ['md', 'json', 'html'];

export type CommandHandler = (args: string, ctx: CommandContext) => Awaitable<CommandResult>;

/** A registered command. Names and aliases are lowercase, without the `/`. */
export interface Command {
  name: string;
  aliases: string[];
  description: string;
  category: string;
  argsHint: string;
  /** May run while a turn is busy; otherwise dispatch refuses it with CommandBusyError. */
  runsWhileBusy: boolean;
  /** `builtin`, or the name of the plugin that registered it. */
  source: string;
  handler: CommandHandler;
}

/** What callers register: the optional parts default to no aliases, no hint, runs while busy, category = source. */
export type CommandInput = Pick<Command, 'name' | 'description' | 'source' | 'handler'> &
  Partial<Pick<Command, 'aliases' | 'category' | 'argsHint' | 'runsWhileBusy'>>;

/** One row of `commands.catalog`. */
export interface CatalogEntry {
  name: string;
  aliases: string[];
  description: string;
  category: string;
  args_hint: string;
  source: string;
}

export const BUILTIN_SOURCE = 'builtin';
