/** Runs one command-line action against a backend process started for it, then stops the backend. */
import { findStartupError, type GatewayReadyPayload } from '@hermes/rpc-server/protocol';
import { errorMessage } from '../app/rpcErrors.ts';
import type { Logger } from '../logging/logger.ts';
import { backendCommand, type BackendOptions } from '../rpc/backendCommand.ts';
import { BackendProcess } from '../rpc/backendProcess.ts';
import type { HermesClient } from '../rpc/hermesClient.ts';
import type { ChatIo } from './chatCommand.ts';
import { plainText } from './plainText.ts';

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
  // A command starts the user's MCP servers (their commands) only when it says it needs them (`hermes mcp list`).
  const backend = new BackendProcess(backendCommand({ noMcpConnect: true, ...backendOptions }), logger);
  try {
    reportConfigProblems(await backend.waitReady(), io);
    return (await action(backend.client)) ?? 0;
  } catch (error) {
    logger.warn(`${label} failed`, { error });
    reportFailure(label, error, backend, io);
    return error instanceof CommandFailure ? error.code : 1;
  } finally {
    await backend.shutdown(2_000);
  }
}

/** Config mistakes, once per command on stderr before its output: a typo may be why a setting did nothing. */
export function reportConfigProblems(ready: GatewayReadyPayload, io: ChatIo): void {
  for (const problem of ready.config_problems ?? []) {
    io.stderr.write(`hermes: ${problem.kind === 'unknown_key' ? 'warning' : 'config problem'}: ${plainText(problem.text)}\n`);
  }
}

/**
 * Why the command failed: the backend's own startup error when it wrote one (it names the file and
 * the fix), else the error; then what else the backend printed, without repeats or stack frames.
 */
export function reportFailure(label: string, error: unknown, backend: BackendProcess, io: ChatIo): void {
  const tail = backend.hasExited ? backend.stderrTail(20) : [];
  const startupError = findStartupError(tail);
  io.stderr.write(`${plainText(labelled(label, startupError ?? errorMessage(error)))}\n`);
  const rest = tail.filter((line) => !(startupError && line.includes(startupError)) && !/^\s+at /.test(line) && line.trim() !== '');
  if (rest.length) io.stderr.write(`${plainText(rest.join('\n'))}\n`);
}

/** The message after the command's name, once: one that already starts with it (`hermes mcp add x: …`) as it is. */
function labelled(label: string, message: string): string {
  return message.startsWith(`${label} `) || message.startsWith(`${label}:`) ? message : `${label}: ${message}`;
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
    io.stderr.write(`${plainText(errorMessage(error))}\n`);
    return error instanceof CommandFailure ? error.code : 1;
  }
  return withBackend(label, backendOptions, io, logger, (client) => action(client, io));
}
