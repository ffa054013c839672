/** The shapes shared by the slash-command registry, its built-ins and the session layer that runs them. */
import type { CommandDescriptor, CommandResult } from '../contract/commands.ts';
import type { McpServerStatus } from '../contract/mcp.ts';
import type { SessionService } from '../liveSession/sessionService.ts';
import type { StoredSession } from '../sessions/sessionStore.ts';

export type Awaitable<T> = T | Promise<T>;

/**
 * What a command runs against: the session it was typed in (every change goes through its service)
 * and the few things only the host knows. Each built-in types its handler with the part it uses.
 */
export interface CommandScope {
  session: SessionService;
  host: CommandHost;
}

/** What the front end (rpc-server) does for commands: open sessions on the wire, plugins, tools. */
export interface CommandHost {
  /** Opens a fresh live session (optionally titled) in the same cwd; returns its wire id. */
  newSession(title?: string): Awaitable<string>;
  /** Opens a branched stored session as a live one; returns its wire id. */
  openBranch(branched: StoredSession, parentId: string): Awaitable<string>;
  listTools(): string;
  listToolsets(): string;
  listPlugins(): string;
  listSkills(): string;
  /** Reloads plugins (their commands are re-registered); returns a summary. */
  reloadPlugins(): Promise<string>;
  /** The MCP servers of config.yaml as they are now (`/mcp`). */
  mcpServers(): McpServerStatus[];
  /** Re-reads config.yaml's `mcp_servers` and reconnects; returns a summary once the servers settled. */
  reloadMcp(): Promise<string>;
}

export type CommandHandler = (args: string, scope: CommandScope) => Awaitable<CommandResult>;

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

/** One row of `commands.catalog`: the contract's CommandDescriptor. */
export type CatalogEntry = CommandDescriptor;

export const BUILTIN_SOURCE = 'builtin';
