/**
 * The backend started with `--judge-only` (what `hermes approvals check` uses): it serves
 * `approvals.check` and nothing else. No runtime is built, so no state.db, no log file, no plugins and
 * no model: it reads $HERMES_HOME/.env (for HOME, as a session would) and writes nothing anywhere.
 */
import type { Readable } from 'node:stream';
import type { Logger } from '@hermes/agent-core';
import { ResponseError } from 'vscode-jsonrpc/node';
import { approvalHandlers, type JudgeHomes } from '../handlers/approvalHandlers.ts';
import { ErrorCode } from '../protocol/index.ts';
import type { FrameSink } from '../transport/index.ts';
import { clientConnection, listenAndAnnounce, serveHandlers, type Backend } from './backend.ts';

export interface JudgeBackendOptions {
  input: Readable;
  output: FrameSink;
  homes: JudgeHomes;
  logger: Logger;
  version: string;
}

export function startJudgeBackend(options: JudgeBackendOptions): Backend {
  const { logger } = options;
  const { connection, writer, dispatcher } = clientConnection(options.input, options.output, logger);
  serveHandlers(dispatcher, approvalHandlers(options.homes), { logger });
  dispatcher.onUnknown(
    (method) => new ResponseError(ErrorCode.MethodNotFound, `${method} is not served by a backend started with --judge-only (only approvals.check is)`),
  );
  const shutdown = async (reason: string): Promise<void> => {
    logger.info('judge-only backend shutting down: %s', reason);
    connection.dispose();
  };
  const closed = new Promise<void>((resolve) => connection.onClose(() => void shutdown('input closed').then(resolve)));
  listenAndAnnounce(connection, options.version, logger);
  logger.info('judge-only backend ready (pid %d)', process.pid);
  return { closed, shutdown, endOutput: (done) => writer.end(done) };
}
