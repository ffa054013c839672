/**
 * `hermes sessions list|search|show|export|delete`: the stored sessions from the command line, through
 * the same backend process as `hermes chat`, without a terminal UI.
 */
import { ErrorCode, type StoredSessionInfo, type TranscriptMessage } from '@hermes/rpc-server/protocol';
import { errorCode } from '../app/rpcErrors.ts';
import type { Logger } from '../logging/logger.ts';
import type { BackendOptions } from '../rpc/backendCommand.ts';
import type { HermesClient } from '../rpc/hermesClient.ts';
import { formatSearchHits, formatSessionTable, formatTranscript, partialSearchNote } from '../sessions/transcriptText.ts';
import type { ChatIo } from './chatCommand.ts';
import { CommandFailure, runPlanned } from './withBackend.ts';

export interface SessionsOptions {
  limit?: string;
  format?: string;
  /** `search --all`: read every message for text too short for an index, however long it takes. */
  all?: boolean;
  backend: BackendOptions;
}

export const SESSIONS_USAGE = `Usage:
  hermes sessions list [--limit N]
  hermes sessions search <query> [--all]
  hermes sessions show <id|title>
  hermes sessions export <id|title> --format md|json
  hermes sessions delete <id|title>
`;

const DEFAULT_LIMIT = 20;
/** How far back `export` looks for the session's summary (its start time and source). */

const usage = (message: string) => new CommandFailure(`${message}\n${SESSIONS_USAGE}`, 2);

type Action = (client: HermesClient, io: ChatIo) => Promise<void>;

/** Checks the arguments before a backend is started: a usage error costs nothing. */
function plan(argv: string[], options: SessionsOptions): Action {
  const [verb, ...rest] = argv;
  const target = rest.join(' ').trim();
  const needTarget = (what: string) => {
    if (!target) throw usage(`hermes sessions ${verb}: give the ${what}`);
    return target;
  };
  if (verb !== 'export' && options.format !== undefined) throw usage(`--format applies to "export" only`);
  if (verb !== 'list' && options.limit !== undefined) throw usage(`--limit applies to "list" only`);
  if (verb !== 'search' && options.all) throw usage(`--all applies to "search" only`);
  switch (verb) {
    case 'list': {
      if (rest.length) throw usage('hermes sessions list takes no arguments');
      const limit = options.limit === undefined ? DEFAULT_LIMIT : Number(options.limit);
      if (!Number.isInteger(limit) || limit <= 0) throw usage(`hermes sessions list: --limit must be a positive whole number, not "${options.limit}"`);
      return async (client, io) => {
        const { sessions } = await client.request('session.list', { limit });
        io.stdout.write(formatSessionTable(sessions));
      };
    }
    case 'search': {
      const query = needTarget('words to search for');
      return async (client, io) => {
        const { hits, searched_since } = await client.request('session.search', { query, ...(options.all ? { exhaustive: true } : {}) });
        io.stdout.write(formatSearchHits(hits));
        // Text too short for an index is looked for in the newest messages within a time budget: say how far.
        if (searched_since !== undefined) io.stderr.write(partialSearchNote(searched_since));
      };
    }
    case 'show': {
      const id = needTarget('session id or title');
      return async (client, io) => {
        const { messages } = await readStored(client, id);
        io.stdout.write(formatTranscript(messages));
      };
    }
    case 'export': {
      const id = needTarget('session id or title');
      const format = options.format ?? 'md';
      if (format !== 'md' && format !== 'json') throw usage(`hermes sessions export: --format must be md or json, not "${format}"`);
      return async (client, io) => {
        // The backend is the one exporter (the same as /save); like `show`, it only reads the store.
        const { text } = await exportStored(client, id, format);
        io.stdout.write(text);
      };
    }
    case 'delete': {
      const id = needTarget('session id or title');
      return async (client, io) => {
        const { deleted } = await deleteSession(client, id);
        if (!deleted) throw notFound(id);
        io.stdout.write(`deleted ${id}\n`);
      };
    }
    case undefined:
      throw usage('hermes sessions: say what to do');
    default:
      throw usage(`hermes sessions: unknown subcommand "${verb}"`);
  }
}

const notFound = (target: string) => new CommandFailure(`no saved session matches "${target}" (hermes sessions list shows them)`, 1);

/**
 * Reads a stored session without opening it (`session.history` of a stored id or title): opening
 * would repair it on load, writing into a session another hermes may be running a tool in.
 */
async function readStored(client: HermesClient, target: string): Promise<{ session: StoredSessionInfo; messages: TranscriptMessage[] }> {
  let read;
  try {
    read = await client.request('session.history', { session_id: target });
  } catch (error) {
    if (errorCode(error) === ErrorCode.SessionNotFound) throw notFound(target);
    throw error;
  }
  // This command's own backend has no session open, so the answer always comes from the store.
  if (!read.stored) throw notFound(target);
  return { session: read.stored, messages: read.messages };
}

async function exportStored(client: HermesClient, target: string, format: 'md' | 'json'): Promise<{ text: string }> {
  try {
    return await client.request('session.export', { session_id: target, format });
  } catch (error) {
    if (errorCode(error) === ErrorCode.SessionNotFound) throw notFound(target);
    throw error;
  }
}

async function deleteSession(client: HermesClient, target: string): Promise<{ deleted: boolean }> {
  try {
    return await client.request('session.delete', { session_id: target });
  } catch (error) {
    if (errorCode(error) === ErrorCode.SessionNotFound) throw notFound(target);
    throw error;
  }
}

/** Exit codes: 0 done, 1 not found or failed, 2 usage. */
export function runSessions(argv: string[], options: SessionsOptions, io: ChatIo, logger: Logger): Promise<number> {
  return runPlanned('hermes sessions', () => plan(argv, options), options.backend, io, logger);
}
