/**
 * `hermes approvals check`: how the approval gate judges a command or a file write, asked of a backend
 * started with `--judge-only` (it serves nothing else and creates nothing under $HOME or $HERMES_HOME).
 * With `--json`, every stdin line goes through that one backend, pipelined, answered in order.
 */
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ApprovalsCheckParams } from '@hermes/rpc-server/protocol';
import { errorMessage } from '../app/rpcErrors.ts';
import type { Logger } from '../logging/logger.ts';
import type { HermesClient } from '../rpc/hermesClient.ts';
import type { ChatIo } from './chatCommand.ts';
import { errorLine, formatVerdict, parseCheckLine, verdictLine } from './verdictText.ts';
import { CommandFailure, runPlanned } from './withBackend.ts';

export interface ApprovalsOptions {
  json: boolean;
  write?: string;
  cwd?: string;
}

export interface ApprovalsIo extends ChatIo {
  stdin: NodeJS.ReadableStream;
}

const APPROVALS_USAGE = `Usage:
  hermes approvals check '<command>' [--cwd DIR]
  hermes approvals check --write PATH [--cwd DIR]
  hermes approvals check --json     (stdin: {"command": "...", "cwd": "..."} or {"write_path": "..."} per line)
`;

/** Requests in flight at once in `--json` mode: enough to keep the backend busy, bounded in memory. */
const MAX_IN_FLIGHT = 64;

type Action = (client: HermesClient, io: ApprovalsIo) => Promise<number>;

const usage = (message: string) => new CommandFailure(`hermes approvals: ${message}\n${APPROVALS_USAGE}`, 2);

/** Checks the arguments before a backend is started: a usage error costs nothing. */
function plan(argv: string[], options: ApprovalsOptions): Action {
  const [verb, ...rest] = argv;
  if (verb !== 'check') throw usage(verb === undefined ? 'say what to do' : `unknown subcommand "${verb}"`);
  if (options.json) {
    if (rest.length > 0 || options.write !== undefined || options.cwd !== undefined) {
      throw usage('--json reads everything from stdin: give no command, --write or --cwd with it');
    }
    return checkLines;
  }
  if (options.write !== undefined && rest.length > 0) throw usage('give either a command or --write PATH, not both');
  if (options.write === undefined && rest.length !== 1) {
    throw usage(rest.length === 0 ? 'give the command to judge' : 'give the command as one quoted argument');
  }
  if (options.write === '' || rest[0]?.trim() === '') throw usage('the command or path is empty');
  const cwd = options.cwd === undefined ? {} : { cwd: path.resolve(options.cwd) };
  const params: ApprovalsCheckParams = options.write !== undefined ? { write_path: options.write, ...cwd } : { command: rest[0]!, ...cwd };
  return async (client, io) => {
    io.stdout.write(formatVerdict(await client.request('approvals.check', params)));
    return 0;
  };
}

/** `--json`: one answer line per input line, in input order, each written as soon as it is known. */
async function checkLines(client: HermesClient, io: ApprovalsIo): Promise<number> {
  let failed = false;
  const answer = async (line: string): Promise<string> => {
    const parsed = parseCheckLine(line);
    if ('error' in parsed) {
      failed = true;
      return errorLine(parsed.error);
    }
    try {
      return verdictLine(await client.request('approvals.check', parsed.params));
    } catch (error) {
      failed = true;
      return errorLine(errorMessage(error));
    }
  };
  const write = async (text: string) => {
    if (!io.stdout.write(`${text}\n`)) await once(io.stdout, 'drain');
  };
  // Each entry settles once its line is written; they settle in order, so the oldest is first.
  const written: Promise<void>[] = [];
  let previous: Promise<void> = Promise.resolve();
  for await (const line of createInterface({ input: io.stdin, crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    const reply = answer(line);
    previous = previous.then(async () => write(await reply));
    written.push(previous);
    if (written.length >= MAX_IN_FLIGHT) await written.shift();
  }
  await previous;
  if (client.isClosed) throw new CommandFailure('the backend stopped before every line was answered', 1);
  return failed ? 1 : 0;
}

/** Exit codes: 0 judged (whatever the verdict), 1 could not judge (or, with --json, some line failed), 2 usage. */
export function runApprovals(argv: string[], options: ApprovalsOptions, io: ApprovalsIo, logger: Logger): Promise<number> {
  return runPlanned('hermes approvals check', () => plan(argv, options), { judgeOnly: true }, io, logger);
}
