import type { CommandRegistry, HermesRuntime, Logger } from '@hermes/agent-core';
import type { PluginHost } from '@hermes/plugin-host';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { Method, ParamsOf, ResultOf } from '../protocol/index.ts';
import type { LiveSessions } from '../server/liveSessions.ts';
import type { ServerRequests } from '../server/serverRequests.ts';

export interface HandlerContext {
  runtime: HermesRuntime;
  sessions: LiveSessions;
  logger: Logger;
  connection: MessageConnection;
  requests: ServerRequests;
  /** Bytes of output the client has not read yet (the transport writer's backlog). */
  outputBacklog?: () => number;
  plugins: PluginHost;
  /** Built-in and plugin slash commands; rebuilt when plugins reload. */
  commands: CommandRegistry;
  demo: boolean;
  version: string;
}

/**
 * A method's handler: it gets params already parsed with the method's schema (methodSchemas.ts) and
 * returns its result type; both derive from the schema, so tsc fails when handler and schema disagree.
 */
export type Handler<M extends Method> = (params: ParamsOf<M>) => ResultOf<M> | Promise<ResultOf<M>>;
/** Handlers by method; a backend may serve only some methods (the judge-only one serves one). */
export type HandlerTable = { [M in Method]?: Handler<M> };
export type { ParamsOf };
