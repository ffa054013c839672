/**
 * A typed JSON-RPC client for the hermes backend over any pair of byte streams (the child's pipes in
 * production, in-memory pipes in tests). It also answers the backend's own requests (approval,
 * clarify) through the handlers the session controller installs.
 */
import type { Readable, Writable } from 'node:stream';
import {
  EVENT_METHOD,
  ErrorCode,
  EventType,
  HermesError,
  ServerRequest,
  type GatewayReadyPayload,
  type HermesEvent,
  type Method,
  type ParamsOf,
  type ResultOf,
  type ServerRequestMap,
} from '@hermes/rpc-server/protocol';
import { FrameError, NdjsonMessageReader, NdjsonMessageWriter } from '@hermes/rpc-server/transport';
import {
  Message,
  ResponseError,
  createMessageConnection,
  type CancellationToken,
  type MessageConnection,
  type NotificationMessage,
} from 'vscode-jsonrpc/node';
import type { Logger } from '../logging/logger.ts';

/** setImmediate turns `drained()` waits at most: far more than the queue of a closing pipe ever holds. */
const MAX_DRAIN_TURNS = 10_000;

/** A JSON-RPC error answer from the backend (its code and message as sent), or a failure to get one. */
export class RpcError extends HermesError {
  override name = 'RpcError';
  constructor(message: string, code: number, data?: unknown) {
    // The backend's code as sent: one of ErrorCode unless a newer backend added one.
    super(code as ErrorCode, message, { data });
  }
}

export type EventListener = (event: HermesEvent) => void;

/** A question the backend asks; `id` is its JSON-RPC request id, which `request.cancel` refers to. */
export type PromptHandler<M extends 'approval' | 'clarify'> = (
  id: string,
  params: ServerRequestMap[M]['params'],
  /** Aborted when the backend cancels the request at the JSON-RPC level (`$/cancelRequest`). */
  signal: AbortSignal,
) => Promise<ServerRequestMap[M]['result']>;

export interface PromptHandlers {
  approval: PromptHandler<'approval'>;
  clarify: PromptHandler<'clarify'>;
}

export class HermesClient {
  private readonly connection: MessageConnection;
  private readonly listeners = new Set<EventListener>();
  /** Events that arrived before anyone subscribed; handed to the first subscriber. */
  private backlog: HermesEvent[] = [];
  private readyPayload: GatewayReadyPayload | undefined;
  private readonly readyWaiters = new Set<(payload: GatewayReadyPayload) => void>();
  private closed = false;
  private disposed = false;
  private readonly closeListeners = new Set<() => void>();
  private prompts: PromptHandlers | undefined;
  /**
   * The JSON-RPC id of each incoming server request, keyed by its params object: vscode-jsonrpc
   * hands a request handler only the params (the same object), not the id the backend's
   * `request.cancel` will name.
   */
  private readonly requestIds = new WeakMap<object, string>();
  private localIds = 0;
  /** Messages handed to vscode-jsonrpc that it has not dispatched yet (it takes one per setImmediate). */
  private queued = 0;

  constructor(
    input: Readable,
    output: Writable,
    private readonly logger: Logger,
  ) {
    const reader = new NdjsonMessageReader(input);
    reader.onError((error) => {
      if (error instanceof FrameError) logger.warn('backend sent a frame that is not JSON-RPC', { error });
    });
    // Events are most of what arrives, and vscode-jsonrpc dispatches one message per setImmediate
    // (with a queue entry and a timer each). While nothing waits in its queue an event goes straight
    // to the listeners; behind a queued answer or request it queues too, so the order holds.
    reader.setInterceptor((message) => {
      if (this.queued === 0 && isEventNotification(message)) {
        this.receive(message.params);
        return true;
      }
      // A cancel of a request already running is handled at once, never queued (vscode-jsonrpc's callback).
      if (!(Message.isNotification(message) && message.method === CANCEL_METHOD)) this.queued += 1;
      return false;
    });
    const connection = createMessageConnection(reader, new NdjsonMessageWriter(output), undefined, {
      messageStrategy: {
        handleMessage: (message, next) => {
          // A queued cancel (of a request not started yet) is not counted: never below zero.
          this.queued = Math.max(0, this.queued - 1);
          if (Message.isRequest(message) && typeof message.params === 'object' && message.params !== null && message.id !== null)
            this.requestIds.set(message.params, String(message.id));
          return next(message);
        },
      },
    });
    this.connection = connection;
    connection.onNotification(EVENT_METHOD, (params: unknown) => this.receive(params));
    connection.onUnhandledNotification((message) =>
      logger.debug('ignored notification', { method: message.method }),
    );
    connection.onRequest(ServerRequest.Approval, (params: ServerRequestMap['approval']['params'], token: CancellationToken) =>
      this.ask('approval', params, token),
    );
    connection.onRequest(ServerRequest.Clarify, (params: ServerRequestMap['clarify']['params'], token: CancellationToken) =>
      this.ask('clarify', params, token),
    );
    // Secrets arrive in a later version of the TUI. "Method not found" makes the backend fall back
    // to deny, never to allow.
    connection.onRequest(ServerRequest.Secret, () => {
      logger.info('declined a server request this client cannot answer yet', { method: ServerRequest.Secret });
      return new ResponseError(ErrorCode.MethodNotFound, `the hermes TUI cannot answer "${ServerRequest.Secret}" requests yet`);
    });
    connection.onError(([error]) => logger.warn('connection error', { error }));
    // vscode-jsonrpc rejects pending requests only on dispose, so a closed pipe disposes: otherwise a
    // request sent just before the backend died would hang forever. First what arrived before the end
    // and still waits in vscode's queue is delivered (a dying backend's answers and last words).
    connection.onClose(() => void this.drained().then(() => this.dispose()));
    connection.listen();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async request<M extends Method>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    if (this.closed) throw new RpcError(`cannot call ${method}: the backend connection is closed`, ErrorCode.InternalError);
    try {
      return (await this.connection.sendRequest(method, params)) as ResultOf<M>;
    } catch (error) {
      if (error instanceof ResponseError) throw new RpcError(error.message, error.code, error.data);
      const message = error instanceof Error ? error.message : String(error);
      throw new RpcError(`${method} failed: ${message}`, ErrorCode.InternalError);
    }
  }

  /** Who answers the backend's approval and clarify requests; until set, they get "method not found". */
  handlePrompts(handlers: PromptHandlers): void {
    this.prompts = handlers;
  }

  private async ask<M extends 'approval' | 'clarify'>(
    method: M,
    params: ServerRequestMap[M]['params'],
    token: CancellationToken,
  ): Promise<ServerRequestMap[M]['result'] | ResponseError> {
    const handler = this.prompts?.[method] as PromptHandler<M> | undefined;
    if (!handler) {
      this.logger.info('declined a server request: nothing answers it yet', { method });
      return new ResponseError(ErrorCode.MethodNotFound, `the hermes TUI cannot answer "${method}" requests yet`);
    }
    if (typeof params !== 'object' || params === null) {
      return new ResponseError(ErrorCode.InvalidParams, `${method}: params must be an object`);
    }
    const field = method === 'approval' ? 'command' : 'question';
    if (typeof (params as Record<string, unknown>)[field] !== 'string') {
      return new ResponseError(ErrorCode.InvalidParams, `${method}: params.${field} must be a string`);
    }
    const echoed = (params as { request_id?: unknown }).request_id;
    const id = this.requestIds.get(params) ?? (typeof echoed === 'string' ? echoed : `local-${++this.localIds}`);
    const aborter = new AbortController();
    const subscription = token.onCancellationRequested(() => aborter.abort());
    try {
      return await handler(id, params, aborter.signal);
    } finally {
      subscription.dispose();
    }
  }

  /** Subscribes to backend events. The first subscriber also receives the events buffered so far. */
  onEvent(listener: EventListener): () => void {
    this.listeners.add(listener);
    if (this.backlog.length > 0) {
      const backlog = this.backlog;
      this.backlog = [];
      for (const event of backlog) listener(event);
    }
    return () => this.listeners.delete(listener);
  }

  /** Resolves with the `gateway.ready` payload (at once if it already came). */
  ready(): Promise<GatewayReadyPayload> {
    if (this.readyPayload) return Promise.resolve(this.readyPayload);
    return new Promise((resolve) => this.readyWaiters.add(resolve));
  }

  onClose(listener: () => void): () => void {
    if (this.closed) listener();
    else this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /**
   * Resolves once vscode-jsonrpc has dispatched every message it holds (it takes one per setImmediate).
   * Bounded: a miscount must not keep a closed client alive.
   */
  async drained(): Promise<void> {
    for (let turns = 0; this.queued > 0 && !this.disposed && turns < MAX_DRAIN_TURNS; turns += 1) await new Promise((resolve) => setImmediate(resolve));
  }

  /** Rejects pending requests and stops reading. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.markClosed();
    this.connection.dispose();
  }

  private receive(frame: unknown): void {
    const problem = eventProblem(frame);
    if (problem === 'unknown') {
      this.logger.debug('ignored an event this TUI does not know (a newer backend?)', { type: (frame as { type: string }).type });
      return;
    }
    if (problem) {
      this.logger.warn(`dropped a malformed event: ${problem}`, { params: frame });
      return;
    }
    const params = frame as HermesEvent;
    if (params.type === EventType.GatewayReady) {
      this.readyPayload = params.payload;
      for (const waiter of this.readyWaiters) waiter(params.payload);
      this.readyWaiters.clear();
    }
    if (this.listeners.size === 0) {
      this.backlog.push(params);
      return;
    }
    for (const listener of this.listeners) listener(params);
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.closeListeners) listener();
    this.closeListeners.clear();
  }
}

const EVENT_TYPES = new Set<string>(Object.values(EventType));
/** vscode-jsonrpc's cancel notification (its CancelNotification, which it does not export). */
const CANCEL_METHOD = '$/cancelRequest';

function isEventNotification(message: Message): message is NotificationMessage {
  return Message.isNotification(message) && message.method === EVENT_METHOD;
}

/**
 * What keeps `value` from being a `HermesEvent`: `unknown` for a type this TUI does not know, words for a
 * malformed frame; undefined for an event whose payload is there when its type carries one. Checked
 * once here so the view can rely on the protocol's types (the TUI bundle has no zod to check more).
 */
function eventProblem(value: unknown): 'unknown' | string | undefined {
  if (typeof value !== 'object' || value === null) return 'not an object';
  const { type, payload } = value as { type?: unknown; payload?: unknown };
  if (typeof type !== 'string') return 'no type';
  if (!EVENT_TYPES.has(type)) return 'unknown';
  if (type === EventType.MessageStart) return undefined;
  return typeof payload === 'object' && payload !== null ? undefined : `${type} without its payload`;
}
