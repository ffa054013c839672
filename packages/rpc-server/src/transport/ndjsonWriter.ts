import type { Writable } from 'node:stream';
import { AbstractMessageWriter, type Message } from 'vscode-jsonrpc/node';

// Taken when the transport loads, before any plugin: code that replaces JSON.stringify later cannot
// change what goes on the wire.
const stringify = JSON.stringify;

/** The frames gathered for one `write`, and the promise every one of their senders is given. */
interface Batch {
  frames: string[];
  bytes: number;
  /** The first frame's message, for the error report when the write fails. */
  first: Message;
  done: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Writes JSON-RPC frames as newline-delimited JSON, in call order. Frames sent in the same tick (and
 * the promise callbacks it runs) go out in one `write` (a syscall and a promise per frame cost more
 * than the frames themselves under a stream of events); every sender of a batch gets the batch's
 * promise, settled once the stream has taken it. When the stream pushes back, nothing more is written
 * until it drains: frames wait here, counted in `backlogBytes`, so the serving end can stop reading
 * requests (createNdjsonConnection).
 */
export class NdjsonMessageWriter extends AbstractMessageWriter {
  private batch: Batch | null = null;
  private flushScheduled = false;
  /** True from a `write` that returned false until the stream's 'drain'. */
  private blocked = false;
  private errorCount = 0;
  /** Bytes of frames given to this writer and not yet taken by the stream. */
  private queuedBytes = 0;
  private readonly backlogListeners: (() => void)[] = [];

  constructor(
    private readonly writable: Writable,
    /** Rewrites each message on its way out; null holds it back (see RequestGate.outgoing). */
    private readonly outgoing?: (message: Message) => object | null,
  ) {
    super();
    writable.on('error', (error: Error) => this.fireError(error));
    writable.on('close', () => {
      // Frames still waiting for a 'drain' that will not come fail now instead of hanging.
      this.flush(true);
      this.fireClose();
    });
    writable.on('drain', () => {
      this.blocked = false;
      this.flush();
    });
  }

  write(msg: Message): Promise<void> {
    const frame = this.outgoing ? this.outgoing(msg) : msg;
    if (frame === null) return Promise.resolve();
    return this.writeVerbatim(frame);
  }

  /** Writes a frame as it is, past the `outgoing` rewrite (answers to bad frames, whole batches). */
  writeVerbatim(frame: object): Promise<void> {
    const msg = frame as Message;
    // Serialized now, so the backlog is counted in bytes (and a frame that cannot be serialized fails alone, at once).
    let text: string;
    try {
      text = `${stringify(msg)}\n`;
    } catch (error) {
      return new Promise<void>((_resolve, reject) => this.fail(error as Error, msg, reject));
    }
    if (this.writable.destroyed || this.writable.writableEnded) {
      return new Promise<void>((_resolve, reject) => this.fail(new Error('write after the output stream closed'), msg, reject));
    }
    const batch = (this.batch ??= newBatch(msg));
    const bytes = Buffer.byteLength(text);
    batch.frames.push(text);
    batch.bytes += bytes;
    this.track(bytes);
    if (!this.flushScheduled && !this.blocked) {
      this.flushScheduled = true;
      // A tick queued from a microtask runs once every pending microtask has: the answer a handler's
      // promise resolves to joins the events the handler sent before it.
      queueMicrotask(() =>
        process.nextTick(() => {
          this.flushScheduled = false;
          this.flush();
        }),
      );
    }
    return batch.done;
  }

  /** Bytes waiting to be taken by the stream (the peer may not be reading). */
  get backlogBytes(): number {
    return this.queuedBytes;
  }

  /** Told each time `backlogBytes` changes. */
  onBacklog(listener: () => void): void {
    this.backlogListeners.push(listener);
  }

  /**
   * Ends the stream after the frames already given (even while it pushes back: the stream buffers them);
   * `done` once the stream has taken them all.
   */
  end(done?: () => void): void {
    this.flush(true);
    this.writable.end(done);
  }

  private track(delta: number): void {
    this.queuedBytes += delta;
    for (const listener of this.backlogListeners) listener();
  }

  /** Hands the gathered frames to the stream in one write, unless it is pushing back (`force`: even then). */
  private flush(force = false): void {
    const batch = this.batch;
    if (!batch || (this.blocked && !force)) return;
    this.batch = null;
    if (this.writable.destroyed || this.writable.writableEnded) {
      this.track(-batch.bytes);
      this.fail(new Error('write after the output stream closed'), batch.first, batch.reject);
      return;
    }
    const text = batch.frames.length === 1 ? batch.frames[0]! : batch.frames.join('');
    const ok = this.writable.write(text, (error) => {
      this.track(-batch.bytes);
      if (error) this.fail(error, batch.first, batch.reject);
      else batch.resolve();
    });
    if (!ok) this.blocked = true;
  }

  private fail(error: Error, msg: Message, reject: (e: Error) => void): void {
    this.errorCount += 1;
    this.fireError(error, msg, this.errorCount);
    reject(error);
  }
}

function newBatch(first: Message): Batch {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { frames: [], bytes: 0, first, done, resolve, reject };
}
