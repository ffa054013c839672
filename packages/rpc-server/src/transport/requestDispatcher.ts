/**
 * The serving end's requests, answered straight from the reader. vscode-jsonrpc's connection runs each
 * incoming message in a `setImmediate` of its own, through an async handler that gives every request a
 * cancellation source, a timestamp and two more promises: ~3.5 µs a request on this team's machines, a
 * quarter of a raw NDJSON echo's whole round trip (docs/performance.md, "Requests without the queue").
 * So the serving end dispatches requests here, in the order they arrive, and keeps vscode-jsonrpc's
 * connection for what it sends (events, prompts to the client) and for its close and error events.
 * Answers have the shapes vscode-jsonrpc gives them: a result of `undefined` is sent as null, a
 * `ResponseError` (thrown, rejected or returned) as its `toJson()`, an unknown method as -32601
 * `Unhandled method <name>`. A `$/cancelRequest` notification (its id already mapped by the
 * RequestGate) fires the token of a request still running; the request is still answered.
 */
import { CancellationToken, CancellationTokenSource, ResponseError, type Message, type NotificationMessage, type RequestMessage } from 'vscode-jsonrpc/node';
import { ErrorCode } from '../protocol/index.ts';
import type { NdjsonMessageWriter } from './ndjsonWriter.ts';

/**
 * A method's handler: the request's params as they came (undefined when absent) and its cancellation.
 * Only a handler declared with the second parameter is given a token (making one costs every request).
 */
export type RequestHandler = (params: unknown, token: CancellationToken) => unknown;

// Read once: in the bundle each use of a name imported from vscode-jsonrpc (CommonJS) goes through
// three getters, and these are used on every request.
const ResponseErrorClass = ResponseError;
const TokenSource = CancellationTokenSource;
const NO_TOKEN = CancellationToken.None;

const CANCEL_METHOD = '$/cancelRequest';

function isRequest(message: Message): message is RequestMessage {
  const m = message as Partial<RequestMessage>;
  return typeof m.method === 'string' && m.id !== undefined;
}

/** A `$/cancelRequest` notification (a request of that name is an unknown method like any other). */
function isCancel(message: Message): message is NotificationMessage & { params: { id: RequestMessage['id'] } } {
  return (message as Partial<NotificationMessage>).method === CANCEL_METHOD && !Object.hasOwn(message, 'id');
}

/** What a handler threw, as the error vscode-jsonrpc would have answered with. */
function asResponseError(method: string, thrown: unknown): ResponseError<unknown> {
  if (thrown instanceof ResponseErrorClass) return thrown;
  const message = (thrown as { message?: unknown } | null)?.message;
  return typeof message === 'string'
    ? new ResponseError(ErrorCode.InternalError, `Request ${method} failed with message: ${message}`)
    : new ResponseError(ErrorCode.InternalError, `Request ${method} failed unexpectedly without providing any details.`);
}

export class RequestDispatcher {
  private readonly handlers = new Map<string, RequestHandler>();
  /** The cancellation of each request whose handler has not settled yet, by id. */
  private readonly running = new Map<RequestMessage['id'], CancellationTokenSource>();
  private unknown: (method: string) => unknown = (method) => new ResponseError(ErrorCode.MethodNotFound, `Unhandled method ${method}`);
  private disposed = false;

  constructor(private readonly writer: NdjsonMessageWriter) {}

  /** Serves `method` with `handler` (a later call for the same method replaces it). */
  on(method: string, handler: RequestHandler): void {
    this.handlers.set(method, handler);
  }

  /** Answers methods no handler serves (default: -32601 `Unhandled method <name>`). */
  onUnknown(answer: (method: string) => unknown): void {
    this.unknown = answer;
  }

  /** From now on requests are dropped unanswered, as a disposed vscode-jsonrpc connection drops them. */
  dispose(): void {
    this.disposed = true;
  }

  /**
   * Takes one incoming message; true when it was a request (answered here, or dropped once disposed) or
   * a `$/cancelRequest`.
   */
  handle(message: Message): boolean {
    if (isCancel(message)) {
      this.running.get(message.params.id)?.cancel();
      return true;
    }
    if (!isRequest(message)) return false;
    if (this.disposed) return true;
    const { id, method } = message;
    const handler = this.handlers.get(method);
    const cancellation = handler && handler.length > 1 ? new TokenSource() : undefined;
    let outcome: unknown;
    try {
      outcome = handler ? handler(message.params, cancellation?.token ?? NO_TOKEN) : this.unknown(method);
    } catch (error) {
      outcome = asResponseError(method, error);
    }
    if (!(outcome instanceof Promise)) {
      this.reply(id, outcome);
      return true;
    }
    // Ids are unique among requests in progress (the RequestGate refuses a reused one).
    if (id !== null && cancellation) this.running.set(id, cancellation);
    outcome
      .then(
        (result: unknown) => this.reply(id, result),
        (error: unknown) => this.reply(id, asResponseError(method, error)),
      )
      .finally(() => {
        if (id !== null && cancellation) this.running.delete(id);
      });
    return true;
  }

  /**
   * Runs `read` (the reading of one chunk of frames) holding the writer: the answers of the requests
   * it serves at once leave in one write when it returns, rather than a tick later.
   */
  answerTogether(read: () => void): void {
    this.writer.hold();
    try {
      read();
    } finally {
      this.writer.release();
    }
  }

  private reply(id: RequestMessage['id'], outcome: unknown): void {
    const answer =
      outcome instanceof ResponseErrorClass ? { jsonrpc: '2.0', id, error: outcome.toJson() } : { jsonrpc: '2.0', id, result: outcome === undefined ? null : outcome };
    // A failed write is reported by the writer's own onError (the connection logs it).
    this.writer.post(answer as Message);
  }
}
