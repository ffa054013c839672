import type { Readable } from 'node:stream';
import { redactSecretsDeep, type HermesRuntime, type Logger } from '@hermes/agent-core';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { promptHandlers } from '../handlers/promptHandlers.ts';
import { configHandlers } from '../handlers/configHandlers.ts';
import { promptAnswerHandlers } from '../handlers/promptAnswers.ts';
import { toolHandlers } from '../handlers/toolHandlers.ts';
import { lifecycleHandlers } from '../handlers/lifecycleHandlers.ts';
import { commandHandlers } from '../handlers/commandHandlers.ts';
import { doctorHandlers } from '../handlers/doctorHandlers.ts';
import { approvalHandlers } from '../handlers/approvalHandlers.ts';
import { mcpHandlers } from '../handlers/mcpHandlers.ts';
import { sendSessionEvent, sessionHandlers } from '../handlers/sessionHandlers.ts';
import { closeLive, sessionKeeper } from '../handlers/sessionKeeper.ts';
import { configProblemInfos } from '../handlers/sessionInfo.ts';
import type { HandlerContext, HandlerTable } from '../handlers/context.ts';
import { parseParams } from '../handlers/params.ts';
import { EVENT_METHOD, EventType, PROTOCOL_VERSION, type ConfigProblemInfo, type HermesEvent, type Method } from '../protocol/index.ts';
import { MethodSchemas } from '../protocol/schemas.ts';
import type { ZodMiniType } from 'zod/mini';
import { checkEvent, checkingResults, checkResult } from './contractCheck.ts';
import { createNdjsonConnection, type FrameSink, type RequestDispatcher } from '../transport/index.ts';
import type { LiveSessions } from './liveSessions.ts';
import { buildCommandRegistry } from './plugins.ts';
import { publishMcpChanges, startMcpWithFirstSession } from './mcp.ts';
import type { PluginHost } from '@hermes/plugin-host';
import { ServerRequests } from './serverRequests.ts';
import { toWireError, type WireErrorOptions } from './wireErrors.ts';

export interface BackendOptions {
  input: Readable;
  output: FrameSink;
  runtime: HermesRuntime;
  plugins: PluginHost;
  logger: Logger;
  version: string;
  demo?: boolean;
  /** The backend's open sessions (created before the plugins, which may inject into them). */
  sessions: LiveSessions;
  /** Start config.yaml's MCP servers after gateway.ready (default); false for `--no-mcp-connect`. */
  connectMcp?: boolean;
}

export interface Backend {
  /** Resolves once the input has ended and every session is closed. */
  closed: Promise<void>;
  /** Interrupts running turns, closes sessions and the store. */
  shutdown(reason: string): Promise<void>;
  /**
   * Ends the output after every frame already given, those still waiting for a slow client's pipe to
   * drain included (ending the output stream itself would drop them); `done` once it has taken them.
   */
  endOutput(done: () => void): void;
}

/** How long a shutdown waits for running turns to stop their tools and store what they had. */
const SHUTDOWN_WAIT_MS = 10_000;

/** Serves the protocol on a pair of streams (the process's stdio in production). */
export function startBackend(options: BackendOptions): Backend {
  const { runtime, logger } = options;
  const { connection, reader, writer, dispatcher } = clientConnection(options.input, options.output, logger);
  const sessions = options.sessions;
  const requests = new ServerRequests(
    writer,
    (sessionId, payload) => {
      const live = sessions.find(sessionId);
      if (live) sendSessionEvent(ctx, live, EventType.RequestCancel, payload);
    },
    logger,
  );
  reader.setInterceptor((message) => requests.handleResponse(message));
  const ctx: HandlerContext = {
    runtime,
    sessions,
    logger,
    connection,
    requests,
    outputBacklog: () => writer.backlogBytes,
    plugins: options.plugins,
    commands: buildCommandRegistry(options.plugins),
    demo: options.demo ?? false,
    version: options.version,
  };

  const table: HandlerTable = {
    ...sessionHandlers(ctx),
    ...promptHandlers(ctx),
    ...promptAnswerHandlers(ctx),
    ...configHandlers(ctx),
    ...toolHandlers(ctx),
    ...lifecycleHandlers(ctx),
    ...commandHandlers(ctx),
    ...doctorHandlers(ctx),
    ...approvalHandlers(runtime.judgeHomes),
    ...mcpHandlers(ctx),
  };
  if (options.connectMcp !== false) startMcpWithFirstSession(table, () => runtime.mcp.start());
  // A SQLite failure in any method (state.db locked, disk full) is answered naming the file and the fix.
  serveHandlers(dispatcher, table, { logger, explainStoreFailure: (error) => runtime.store.explainFailure(error) });
  const { idle_close: idleClose, max_open: maxOpen } = runtime.loaded.config.sessions;
  sessions.manage({ idleCloseMs: idleClose * 1000, maxOpen }, sessionKeeper(ctx), logger);
  const stopMcpInfo = publishMcpChanges(runtime, sessions);

  let shuttingDown: Promise<void> | null = null;
  const shutdown = (reason: string): Promise<void> => {
    shuttingDown ??= (async () => {
      logger.info('backend shutting down: %s', reason);
      requests.cancelAll('shutdown');
      sessions.stop();
      stopMcpInfo();
      // Each running tool is aborted, its partial output stored as its result, the turn ended as
      // interrupted. A tool that ignores its abort does not keep the backend alive: its call is
      // answered as interrupted when the session is next opened.
      const closing = Promise.allSettled(sessions.all().map((s) => closeLive(ctx, s, `hermes stopped: ${reason}`)));
      let timer: NodeJS.Timeout | undefined;
      const waited = await Promise.race([closing.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), SHUTDOWN_WAIT_MS)))]);
      clearTimeout(timer);
      if (!waited) logger.warn('backend shutting down: a running turn did not stop within %d s; exiting anyway', SHUTDOWN_WAIT_MS / 1000);
      runtime.close();
      connection.dispose();
    })();
    return shuttingDown;
  };

  const closed = new Promise<void>((resolve) => {
    connection.onClose(() => {
      void shutdown('input closed').then(resolve);
    });
  });
  listenAndAnnounce(connection, options.version, logger, configProblemInfos(runtime));
  const model = runtime.model.ok ? `${runtime.model.model.provider}/${runtime.model.model.model}` : 'none configured';
  logger.info('backend ready (pid %d, model %s)', process.pid, model);
  return { closed, shutdown, endOutput: (done) => writer.end(done) };
}

/**
 * Answers each method of `table`: its params are parsed with the method's schema (-32602 naming the
 * field), a thrown error is mapped to its JSON-RPC error, and results carry no secrets. In check mode
 * (contractCheck.ts) a result its schema refuses is answered -32603 naming the method and the field.
 */
export function serveHandlers(dispatcher: RequestDispatcher, table: HandlerTable, errors: WireErrorOptions): void {
  const { logger } = errors;
  const checking = checkingResults();
  for (const [name, handler] of Object.entries(table)) {
    if (!Object.hasOwn(MethodSchemas, name)) throw new Error(`${name} has a handler but no schema in MethodSchemas`);
    const method = name as Method;
    const schemas: { params: ZodMiniType; result: ZodMiniType } = MethodSchemas[method];
    const answer = (result: unknown) => {
      if (checking) checkResult(method, schemas.result, result, logger);
      return redactSecretsDeep(result);
    };
    const fail = (error: unknown) => toWireError(method, error, errors);
    dispatcher.on(method, (raw) => {
      try {
        const params = parseParams(method, schemas.params, raw);
        const result = (handler as (p: unknown) => unknown)(params);
        return result instanceof Promise ? result.then(answer).catch(fail) : answer(result);
      } catch (error) {
        return fail(error);
      }
    });
  }
}

/** The client's connection: NDJSON over the given streams; bad frames are answered and logged. */
export function clientConnection(input: Readable, output: FrameSink, logger: Logger) {
  const { dispatcher, ...rest } = createNdjsonConnection(input, output, {
    answerBadFrames: true,
    onBadFrame: (error) => logger.warn('bad frame from client: %s', error.message),
  });
  return { ...rest, dispatcher: dispatcher! };
}

/** Starts reading requests and sends the handshake, `gateway.ready`. */
export function listenAndAnnounce(connection: MessageConnection, version: string, logger: Logger, configProblems: ConfigProblemInfo[] = []): void {
  connection.onError(([error]) => logger.warn('transport: %s', error));
  connection.listen();
  const ready: HermesEvent = {
    type: EventType.GatewayReady,
    payload: { version, protocol: PROTOCOL_VERSION, pid: process.pid, ...(configProblems.length ? { config_problems: configProblems } : {}) },
  };
  checkEvent(ready.type, ready.payload, logger);
  connection.sendNotification(EVENT_METHOD, ready).catch((error: unknown) => logger.warn('could not send gateway.ready: %s', (error as Error).message));
}
