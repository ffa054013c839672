/**
 * The serving end's door for requests. Client ids cannot key what is in progress: `1` and `"1"` are
 * different ids, null ids cannot be told apart, and a batch's answers must be gathered. (vscode-jsonrpc,
 * which dispatched requests before the RequestDispatcher, keyed them by `String(id)`: a second request
 * with an id in progress replaced the first, and a null id was never answered.) So every admitted
 * request gets a fresh internal id on the way in and its own id back on the way out; an id still in
 * progress is refused; batches are answered as one array once all their requests are answered.
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
  /** The client's id (null ids are not tracked in `inUse`: they cannot be correlated anyway). */
  id: RpcId;
  batch: Batch | null;
}

/** Internal ids of the requests in progress by the client's id: numbers and strings apart, so 1 is not "1". */
class IdsInUse {
  private readonly numbers = new Map<number, number>();
  private readonly strings = new Map<string, number>();

  private of(id: string | number): Map<string | number, number> {
    return (typeof id === 'number' ? this.numbers : this.strings) as Map<string | number, number>;
  }

  get(id: string | number): number | undefined {
    return this.of(id).get(id);
  }

  set(id: string | number, internal: number): void {
    this.of(id).set(id, internal);
  }

  delete(id: string | number): void {
    this.of(id).delete(id);
  }
}

function errorFrame(id: RpcId, code: number, message: string): ResponseMessage {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

export class RequestGate {
  private nextInternal = 0;
  private readonly admitted = new Map<number, Admitted>();
  private readonly inUse = new IdsInUse();

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
    if (entry.id !== null) this.inUse.delete(entry.id);
    // The answer is the dispatcher's own, made for this write: it takes the client's id in place.
    const answer = m as { id: RpcId };
    answer.id = entry.id;
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
          const internal = this.inUse.get(cancel.id);
          if (internal !== undefined) out.push({ ...frame.message, params: { id: internal } } as Message);
        }
        return null;
      }
      case 'request': {
        const id = frame.id;
        if (Array.isArray(frame.message.params)) {
          return this.refusal(
            new FrameError(
              `Invalid params for ${frame.message.method}: \`params\` must be an object of named fields, not a list`,
              ErrorCode.InvalidParams,
              frame.id,
            ),
          );
        }
        if (id !== null && this.inUse.get(id) !== undefined) {
          return this.refusal(
            new FrameError(
              `Invalid request: id ${JSON.stringify(frame.id)} is already in use by a request still in progress; give each request its own id`,
              ErrorCode.InvalidRequest,
              frame.id,
            ),
          );
        }
        const internal = (this.nextInternal += 1);
        this.admitted.set(internal, { id, batch });
        if (id !== null) this.inUse.set(id, internal);
        if (batch) batch.pending += 1;
        // The parsed frame is this gate's alone: it carries the internal id from here (the client's is in `admitted`).
        frame.message.id = internal;
        out.push(frame.message);
        return null;
      }
    }
  }

  private refusal(error: FrameError): ResponseMessage {
    this.report(error);
    return errorFrame(error.id, error.code, error.message);
  }
}
