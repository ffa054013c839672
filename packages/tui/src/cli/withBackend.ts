/** Runs one command-line action against a backend process started for it, then stops the backend. */
import { errorMessage } from '../app/rpcErrors.ts';
import type { Logger } from '../logging/logger.ts';
import { backendCommand, type BackendOptions } from '../rpc/backendCommand.ts';
import { BackendProcess } from '../rpc/backendProcess.ts';
import type { HermesClient } from '../rpc/hermesClient.ts';
import type { ChatIo } from './chatCommand.ts';

/** A failure with the exit code it should end the process with (1 failed, 2 usage). */
export class CommandFailure extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

export async function withBackend(
  label: string,
  backendOptions: BackendOptions,
  io: ChatIo,
  logger: Logger,
  action: (client: HermesClient) => Promise<number | void>,
): Promise<number> {
  const backend = new BackendProcess(backendCommand(backendOptions), logger);
  try {
    await backend.waitReady();
    return (await action(backend.client)) ?? 0;
  } catch (error) {
    logger.warn(`${label} failed`, { error });
    io.stderr.write(`${label}: ${errorMessage(error)}\n`);
    const tail = backend.stderrTail(20);
    if (backend.hasExited && tail.length) io.stderr.write(`${tail.join('\n')}\n`);
    return error instanceof CommandFailure ? error.code : 1;
  } finally {
    await backend.shutdown(2_000);
  }
}

/**
 * Checks the arguments with `plan` before anything starts (a usage error costs no backend: its message
 * and exit code go out at once), then runs the planned action against a backend.
 */
export async function runPlanned<Io extends ChatIo>(
  label: string,
  plan: () => (client: HermesClient, io: Io) => Promise<number | void>,
  backendOptions: BackendOptions,
  io: Io,
  logger: Logger,
): Promise<number> {
  let action: (client: HermesClient, io: Io) => Promise<number | void>;
  try {
    action = plan();
  } catch (error) {
    io.stderr.write(`${errorMessage(error)}\n`);
    return error instanceof CommandFailure ? error.code : 1;
  }
  return withBackend(label, backendOptions, io, logger, (client) => action(client, io));
}
