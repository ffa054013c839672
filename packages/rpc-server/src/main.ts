#!/usr/bin/env node
// The guard must be the first import: nothing may reach stdout but protocol frames.
import { protocolStdout } from './boot/guard.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createFileLogger,
  createStderrLogger,
  describeWriteFailure,
  formatProblem,
  hermesHome,
  HermesRuntime,
  judgeHomes,
  loadConfig,
  redactSecrets,
  StoreError,
  useGrammarDir,
  type Logger,
} from '@hermes/agent-core';
import { blamePlugins } from '@hermes/plugin-host';
import { CLIENT_PROTOCOL_ENV, STARTUP_ERROR_PREFIX, versionLine } from './protocol/index.ts';
import { clientProtocolProblem } from './boot/clientProtocol.ts';
import { BACKEND_USAGE, parseBackendArgs, type BackendArgs } from './boot/cliArgs.ts';
import { redactStderr } from './boot/stderrRedaction.ts';
import { startBackend, type Backend } from './server/backend.ts';
import { startJudgeBackend } from './server/judgeBackend.ts';
import { LiveSessions } from './server/liveSessions.ts';
import { discoverPluginsOnly, loadPlugins } from './server/plugins.ts';
import { HERMES_VERSION } from './version.ts';
import { codeCacheStatus, describeCodeCache } from '../../../scripts/bundling/codeCache/status.ts';

/**
 * A client that died (kill -9 of the TUI) leaves stderr a broken pipe. Unhandled, each write's EPIPE
 * becomes an uncaught exception whose report writes to stderr again: a loop that spins at full CPU
 * and starves the exit. Nothing more can be shown there; what matters goes to backend.log too.
 */
function tolerateBrokenStderr(): void {
  process.stderr.on('error', () => undefined);
}

async function main(): Promise<void> {
  tolerateBrokenStderr();
  redactStderr();
  // The bundle (dist/hermes-rpc.cjs) carries the bash grammar beside it (scripts/build.mjs): an
  // installed copy has no node_modules to resolve it from. Run from source (.ts), node_modules has it.
  const entry = fileURLToPath(import.meta.url);
  if (!entry.endsWith('.ts')) useGrammarDir(path.join(path.dirname(entry), 'grammar'));
  let args: BackendArgs;
  try {
    args = parseBackendArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`hermes-rpc: ${(error as Error).message}\n${BACKEND_USAGE}\n`);
    process.exit(2);
  }
  if (args.version) {
    protocolStdout.write(`${versionLine('hermes-rpc')}\n`);
    return;
  }
  // Read once, then dropped: the commands the agent runs must not inherit the client's statement.
  const protocolProblem = clientProtocolProblem(process.env[CLIENT_PROTOCOL_ENV]);
  delete process.env[CLIENT_PROTOCOL_ENV];
  if (protocolProblem) {
    reportStartupFailure(new Error(protocolProblem));
    process.exit(1);
  }
  const home = hermesHome();
  if (args.judgeOnly) {
    // Creates nothing: no runtime (state.db), no log file; .env is only read, for HOME.
    const logger = createStderrLogger();
    const loaded = loadConfig(home);
    for (const problem of loaded.problems) logger.warn('config: %s', formatProblem(problem));
    // The process environment wins over $HERMES_HOME/.env, as in a session.
    const homes = judgeHomes(home, { ...loaded.dotenv, ...process.env });
    runUntilClosed(startJudgeBackend({ input: process.stdin, output: protocolStdout, homes, logger, version: HERMES_VERSION }), logger);
    return;
  }
  const logFile = path.join(home, 'logs', 'backend.log');
  let logProblem: string | undefined;
  const logger = createFileLogger(logFile, {
    onOpenError: (error) => {
      logProblem = `${describeWriteFailure(logFile, error)} Log lines go to stderr meanwhile.`;
      process.stderr.write(`hermes-rpc: ${logProblem}\n`);
    },
  });
  const codeCache = codeCacheStatus();
  if (codeCache) logger[codeCache.problem ? 'warn' : 'info']('%s', describeCodeCache(codeCache));
  let runtime: HermesRuntime;
  try {
    runtime = new HermesRuntime({ home, flags: args.flags, logger, openStore: !args.noSessionStore });
  } catch (error) {
    // The user sees the message (the TUI shows it); the stack, when it says more, goes to the log only.
    reportStartupFailure(error);
    logger.error('cannot start: %s', error instanceof StoreError ? error.message : error);
    process.exit(1);
  }
  // The TUI never shows stderr: the user learns of a log that is not written where config problems are shown.
  if (logProblem) runtime.loaded.problems.push({ file: logFile, kind: 'unreadable', message: logProblem });
  const sessions = new LiveSessions();
  // A plugin that fails is reported in plugins.list; only a failure of the host itself stops here.
  const plugins = args.discoverPluginsOnly ? discoverPluginsOnly(runtime, sessions, logger) : await loadPlugins(runtime, sessions, logger);
  const backend = startBackend({
    input: process.stdin,
    output: protocolStdout,
    runtime,
    plugins,
    sessions,
    logger,
    version: HERMES_VERSION,
    demo: args.demo,
    connectMcp: !args.noMcpConnect,
  });
  runUntilClosed(backend, logger);
}

/** Shuts down on a signal, reports what would otherwise be lost, exits once the client closes stdin. */
function runUntilClosed(backend: Backend, logger: Logger): void {
  // Frames still queued go out first; a client that stopped reading cannot keep us alive for long.
  const exitFlushed = () => {
    setTimeout(() => process.exit(0), 2_000);
    // The transport hands a tick's frames to the stream once that tick's promise callbacks have run:
    // end after them, or the last answers (shell.exec stopped by the shutdown) would be cut off; and
    // through the transport, which also hands over the frames a slow client has not made room for yet.
    setImmediate(() => backend.endOutput(() => process.exit(0)));
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    // The running tool is stopped and its partial output stored before the exit (backend.shutdown).
    process.once(signal, () => {
      void backend.shutdown(signal).then(exitFlushed);
    });
  }
  // A crash names the plugin whose code was running (its async context, or its files in the stack).
  const culprit = (error?: unknown) => {
    const blame = blamePlugins(error);
    return blame ? ` in ${blame}` : '';
  };
  process.on('uncaughtException', (error) => {
    logger.error('uncaught exception%s: %s', culprit(error), error);
    process.stderr.write(redactSecrets(`hermes-rpc: uncaught exception${culprit(error)}: ${error.stack ?? error.message}\n`));
  });
  process.on('unhandledRejection', (reason) => {
    logger.error('unhandled rejection%s: %s', culprit(reason), reason);
    const text = reason instanceof Error ? (reason.stack ?? reason.message) : String(reason);
    if (culprit(reason)) process.stderr.write(redactSecrets(`hermes-rpc: unhandled rejection${culprit(reason)}: ${text}\n`));
  });
  process.on('exit', (code) => {
    if (code === 0 || !culprit()) return;
    logger.error('exiting with code %d%s', code, culprit());
    process.stderr.write(`hermes-rpc: exiting with code ${code}${culprit()}\n`);
  });
  // Exit when the client closes our stdin, after pending writes have gone out.
  void backend.closed.then(exitFlushed);
}

/** One line on stderr that clients recognize (STARTUP_ERROR_PREFIX) and show as the error: never a stack. */
function reportStartupFailure(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(redactSecrets(`${STARTUP_ERROR_PREFIX}${message.replace(/\s*\n\s*/g, ' ')}\n`));
}

main().catch((error: unknown) => {
  reportStartupFailure(error);
  createFileLogger(path.join(hermesHome(), 'logs', 'backend.log'), { fallback: () => undefined }).error(
    'cannot start: %s',
    error instanceof Error ? (error.stack ?? error.message) : String(error),
  );
  process.exit(1);
});
