/**
 * A typed JSON-RPC client for the hermes backend over any pair of byte streams (the child's pipes in
 * production, in-memory pipes in tests).
 */
import type { Readable, Writable } from 'node:stream';
import {
  EVENT_METHOD,
  ErrorCode,
  EventType,
  ServerRequest,
  type GatewayReadyPayload,
  type HermesEvent,
  type Method,
  type ParamsOf,
  type ResultOf,
} from '@hermes/rpc-server/protocol';
import { createNdjsonConnection } from '@hermes/rpc-server/transport';
import { ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import type { Logger } from '../logging/logger.ts';

/** A JSON-RPC error answer from the backend, or a failure to get one. */
export class RpcError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export type EventListener = (event: HermesEvent) => void;

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

  constructor(
    input: Readable,
    output: Writable,
    private readonly logger: Logger,
  ) {
    const { connection } = createNdjsonConnection(input, output, {
      onBadFrame: (error) => logger.warn('backend sent a frame that is not JSON-RPC', { error }),
    });
    this.connection = connection;
    connection.onNotification(EVENT_METHOD, (params: unknown) => this.receive(params));
    connection.onUnhandledNotification((message) =>
      logger.debug('ignored notification', { method: message.method }),
    );
    // Approval, clarify and secret prompts arrive in a later version of the TUI. Answering "method
    // not found" makes the backend fall back to deny, never to allow.
    for (const method of Object.values(ServerRequest)) {
      connection.onRequest(method, () => {
        logger.info('declined a server request this client cannot answer yet', { method });
        return new ResponseError(ErrorCode.MethodNotFound, `the hermes TUI cannot answer "${method}" requests yet`);
      });
    }
    connection.onError(([error]) => logger.warn('connection error', { error }));
    // vscode-jsonrpc rejects pending requests only on dispose, so a closed pipe disposes at once:
    // otherwise a request sent just before the backend died would hang forever.
    connection.onClose(() => this.dispose());
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

  /** Rejects pending requests and stops reading. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.markClosed();
    this.connection.dispose();
  }

  private receive(params: unknown): void {
    if (!isEvent(params)) {
      this.logger.warn('dropped a malformed event', { params });
      return;
    }
    if (params.type === EventType.GatewayReady && params.payload) {
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

function isEvent(value: unknown): value is HermesEvent {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
