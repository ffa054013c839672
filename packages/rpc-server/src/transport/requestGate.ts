/**
 * The serving end's door for requests. vscode-jsonrpc keys its queue by `String(id)`: a second
 * request with an id still in progress replaced the first (which was never answered), `1` and `"1"`
 * collided, and an id of null was never answered. So every admitted request gets a fresh internal
 * id on the way in and its own id back on the way out; an id still in progress is refused; batches
 * are answered as one array once all their requests are answered.
 */
import type { Message, ResponseMessage } from 'vscode-jsonrpc/node';
import { ErrorCode, MAX_BATCH_SIZE } from '../protocol/index.ts';
import { cancelTarget, classifyFrame, type RpcId } from './frames.ts';
import { FrameError } from './frameError.ts';

interface Batch {
  /** Requests of the batch still waiting for their answer. */
  pending: number;
  responses: object[];
}

interface Admitted {
  id: RpcId;
  /** The key the id holds in `inUse`; null ids are not tracked (they cannot be correlated anyway). */
  key: string | null;
  batch: Batch | null;
}

function idKey(id: RpcId): string | null {
  return id === null ? null : `${typeof id}:${id}`;
}

function errorFrame(id: RpcId, code: number, message: string): ResponseMessage {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

export class RequestGate {
  private nextInternal = 0;
  private readonly admitted = new Map<number, Admitted>();
  private readonly inUse = new Map<string, number>();

  constructor(
    /** Writes a frame to the client as it is (error answers, finished batches). */
    private readonly send: (frame: object) => void,
    /** Told of every frame refused, for the log. */
    private readonly report: (error: FrameError) => void,
  ) {}

  /** Requests admitted and not yet answered. */
  get inFlight(): number {
    return this.admitted.size;
  }

  /** Answers a line that could not be read at all (bad JSON, over the size cap). */
  refuse(error: FrameError): void {
    this.report(error);
    this.send(errorFrame(error.id, error.code, error.message));
  }

  /** Takes one parsed line; returns the messages vscode-jsonrpc should see. */
  receive(value: unknown): Message[] {
    const out: Message[] = [];
    if (!Array.isArray(value)) {
      const refused = this.admit(value, null, out);
      if (refused) this.send(refused);
      return out;
    }
    if (value.length === 0 || value.length > MAX_BATCH_SIZE) {
      const why = value.length === 0 ? 'an empty batch' : `a batch of ${value.length} frames (at most ${MAX_BATCH_SIZE})`;
      this.refuse(new FrameError(`Invalid request: ${why}`, ErrorCode.InvalidRequest, null));
      return out;
    }
    const batch: Batch = { pending: 0, responses: [] };
    for (const element of value) {
      const refused = this.admit(element, batch, out);
      if (refused) batch.responses.push(refused);
    }
    // Only notifications and responses (nothing to answer), or only refusals (answer them now).
    if (batch.pending === 0 && batch.responses.length > 0) this.send(batch.responses);
    return out;
  }

  /**
   * An outgoing message on its way to the wire: an answer gets back the client's id; an answer that
   * belongs to a batch still waiting on others is held (null), and the full batch goes out with the last.
   */
  outgoing(message: Message): object | null {
    const m = message as ResponseMessage & { method?: unknown };
    if (m.method !== undefined || typeof m.id !== 'number') return message;
    const entry = this.admitted.get(m.id);
    if (!entry) return message;
    this.admitted.delete(m.id);
    if (entry.key !== null) this.inUse.delete(entry.key);
    const answer = { ...m, id: entry.id };
    if (!entry.batch) return answer;
    entry.batch.responses.push(answer);
    entry.batch.pending -= 1;
    return entry.batch.pending === 0 ? entry.batch.responses : null;
  }

  /** Admits one frame into `out`; returns the error answer when it is refused. */
  private admit(value: unknown, batch: Batch | null, out: Message[]): ResponseMessage | null {
    const frame = classifyFrame(value);
    switch (frame.kind) {
      case 'invalid':
        return this.refusal(new FrameError(frame.reason, ErrorCode.InvalidRequest, frame.id));
      case 'response':
        out.push(frame.message);
        return null;
      case 'notification': {
        const cancel = cancelTarget(frame.message);
        if (cancel === null) {
          out.push(frame.message);
        } else if ('problem' in cancel) {
          // A notification is never answered; the log says why it was dropped.
          this.report(new FrameError(`Ignored: ${cancel.problem}`, ErrorCode.InvalidParams, null));
        } else {
          // A cancel for a request already answered (or never sent) is a no-op.
          const internal = this.inUse.get(idKey(cancel.id)!);
          if (internal !== undefined) out.push({ ...frame.message, params: { id: internal } } as Message);
        }
        return null;
      }
      case 'request': {
        const key = idKey(frame.id);
        if (Array.isArray(frame.message.params)) {
          return this.refusal(
            new FrameError(
              `Invalid params for ${frame.message.method}: \`params\` must be an object of named fields, not a list`,
              ErrorCode.InvalidParams,
              frame.id,
            ),
          );
        }
        if (key !== null && this.inUse.has(key)) {
          return this.refusal(
            new FrameError(
              `Invalid request: id ${JSON.stringify(frame.id)} is already in use by a request still in progress; give each request its own id`,
              ErrorCode.InvalidRequest,
              frame.id,
            ),
          );
        }
        const internal = (this.nextInternal += 1);
        this.admitted.set(internal, { id: frame.id, key, batch });
        if (key !== null) this.inUse.set(key, internal);
        if (batch) batch.pending += 1;
        out.push({ ...frame.message, id: internal } as Message);
        return null;
      }
    }
  }

  private refusal(error: FrameError): ResponseMessage {
    this.report(error);
    return errorFrame(error.id, error.code, error.message);
  }
}
