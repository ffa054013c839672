import crypto from 'node:crypto';
import { redactSecretsDeep, type Logger } from '@hermes/agent-core';
import type { Message } from 'vscode-jsonrpc/node';
import {
  SERVER_REQUEST_ID_PREFIX,
  type RequestCancelPayload,
  type ServerRequest,
  type ServerRequestMap,
} from '../protocol/index.ts';
import type { NdjsonMessageWriter } from '../transport/index.ts';
import { checkServerRequest } from './contractCheck.ts';

interface Pending {
  method: ServerRequest;
  sessionId: string;
  settle: (result: unknown) => void;
}

type CancelReason = RequestCancelPayload['reason'];

/**
 * Questions the backend asks the client (approval, clarify, secret): JSON-RPC requests with ids
 * prefixed `srq-`, answered by an ordinary response, or by `approval.respond`/`clarify.respond` from
 * clients without server requests. A question withdrawn by an abort (interrupt, timeout, session
 * closed) is announced with `request.cancel`. Unanswerable questions resolve null, never throw:
 * callers turn null into their safe default (deny).
 */
export class ServerRequests {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly writer: NdjsonMessageWriter,
    private readonly announceCancel: (sessionId: string, payload: RequestCancelPayload) => void,
    private readonly logger: Logger,
  ) {}

  ask<M extends ServerRequest>(
    method: M,
    params: ServerRequestMap[M]['params'],
    signal: AbortSignal,
  ): Promise<ServerRequestMap[M]['result'] | null> {
    const id = `${SERVER_REQUEST_ID_PREFIX}${crypto.randomBytes(6).toString('hex')}`;
    const sessionId = params.session_id;
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(null);
      const onAbort = () => {
        if (!this.pending.delete(id)) return;
        this.announceCancel(sessionId, { id, method, reason: cancelReason(signal.reason) });
        resolve(null);
      };
      this.pending.set(id, {
        method,
        sessionId,
        settle: (result) => {
          signal.removeEventListener('abort', onAbort);
          resolve(result as ServerRequestMap[M]['result'] | null);
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
      // An approval's diff may show a .env being written: no secret goes on the wire.
      const sent = redactSecretsDeep({ ...params, request_id: id });
      checkServerRequest(method, sent, this.logger);
      const frame = { jsonrpc: '2.0', id, method, params: sent } as Message;
      this.writer.write(frame).catch((error: unknown) => {
        this.logger.warn('could not send %s request: %s', method, error);
        this.settle(id, null);
      });
    });
  }

  /** Consumes the client's response to one of our requests; false for every other message. */
  handleResponse(message: Message): boolean {
    const m = message as { id?: unknown; method?: unknown; result?: unknown; error?: { code: number; message: string } };
    if (typeof m.id !== 'string' || !m.id.startsWith(SERVER_REQUEST_ID_PREFIX) || m.method !== undefined) return false;
    if (m.error) {
      // -32601 means the client has no handler for this prompt: the caller falls back to deny.
      this.logger.info('client answered %s with error %d: %s', m.id, m.error.code, m.error.message);
      this.settle(m.id, null);
    } else if (!this.settle(m.id, m.result ?? null)) {
      this.logger.info('late or unknown answer to %s ignored', m.id);
    }
    return true;
  }

  /** Answers a pending request by id (for `approval.respond` / `clarify.respond`). */
  respond(requestId: string, result: unknown, method?: ServerRequest): number {
    const pending = this.pending.get(requestId);
    if (!pending || (method && pending.method !== method)) return 0;
    return this.settle(requestId, result) ? 1 : 0;
  }

  /** Ids of the questions still open for a session, oldest first. */
  openFor(sessionId: string, method?: ServerRequest): string[] {
    return [...this.pending.entries()]
      .filter(([, p]) => p.sessionId === sessionId && (!method || p.method === method))
      .map(([id]) => id);
  }

  /**
   * Withdraws every open question (of one session, or all), answering null. `announce` replaces the
   * default announcer for a session already taken out of the open set (session.close, idle close).
   */
  cancelAll(reason: CancelReason, sessionId?: string, announce = this.announceCancel): void {
    for (const [id, pending] of [...this.pending.entries()]) {
      if (sessionId && pending.sessionId !== sessionId) continue;
      this.pending.delete(id);
      announce(pending.sessionId, { id, method: pending.method, reason });
      pending.settle(null);
    }
  }

  private settle(id: string, result: unknown): boolean {
    const pending = this.pending.get(id);
    if (!pending) return false;
    this.pending.delete(id);
    pending.settle(result);
    return true;
  }
}

function cancelReason(reason: unknown): CancelReason {
  const text = reason instanceof Error ? `${reason.name} ${reason.message}` : String(reason ?? '');
  if (/timeout|timed out/i.test(text)) return 'timeout';
  if (/session closed/i.test(text)) return 'session_closed';
  if (/shutdown/i.test(text)) return 'shutdown';
  return 'interrupted';
}
