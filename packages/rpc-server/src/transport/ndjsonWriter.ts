import { AbstractMessageWriter, type Message } from 'vscode-jsonrpc/node';

/**
 * What the writer needs of its output: a Writable, or a stand-in with these members (the backend's
 * stdout, written past the stdout guard: boot/stdoutGuard.ts).
 */
export interface FrameSink {
  write(chunk: string, callback?: (error?: Error | null) => void): boolean;
  end(done?: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'close' | 'drain', listener: () => void): unknown;
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
}

// Taken when the transport loads, before any plugin: code that replaces JSON.stringify later cannot
// change what goes on the wire.
const stringify = JSON.stringify;

/** The frames gathered for one `write`, and the promise every one of their senders is given. */
interface Batch {
  frames: string[];
  bytes: number;
  /** The first frame's message, for the error report when the write fails. */
  first: Message;
  /** Made when a sender first asks for it (`post` asks for none). */
  done?: Promise<void>;
  resolve?: () => void;
  reject?: (error: Error) => void;
}

/**
 * Writes JSON-RPC frames as newline-delimited JSON, in call order. Frames sent in the same tick (and
 * the promise callbacks it runs) go out in one `write` (a syscall and a promise per frame cost more
 * than the frames themselves under a stream of events); every sender of a batch gets the batch's
 * promise, settled once the stream has taken it. When the stream pushes back, nothing more is written
 * until it drains: frames wait here, counted in `backlogBytes`, so the serving end can stop reading
 * requests (createNdjsonConnection). Between `hold` and `release` (the serving end reading a chunk of
 * requests) frames wait for the release instead of the tick: the chunk's answers leave in one write as
 * soon as it is read.
 */
export class NdjsonMessageWriter extends AbstractMessageWriter {
  private batch: Batch | null = null;
  private flushScheduled = false;
  /** True from a `write` that returned false until the stream's 'drain'. */
  private blocked = false;
  private errorCount = 0;
  /** Open `hold`s: while above 0, frames wait for the last `release` rather than for the tick. */
  private held = 0;
  /** Bytes of frames given to this writer and not yet taken by the stream. */
  private queuedBytes = 0;
  private readonly backlogListeners: (() => void)[] = [];

  constructor(
    private readonly writable: FrameSink,
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

  /** As `write`, without a promise: a failure is reported through `onError` alone (the serving end's answers). */
  post(msg: Message): void {
    const frame = this.outgoing ? this.outgoing(msg) : msg;
    if (frame !== null) this.enqueue(frame);
  }

  /** Writes a frame as it is, past the `outgoing` rewrite (answers to bad frames, whole batches). */
  writeVerbatim(frame: object): Promise<void> {
    const batch = this.enqueue(frame);
    if (batch instanceof Error) return Promise.reject(batch);
    batch.done ??= new Promise<void>((resolve, reject) => {
      batch.resolve = resolve;
      batch.reject = reject;
    });
    return batch.done;
  }

  /** Frames given from now on wait for the matching `release`, not for the tick. */
  hold(): void {
    this.held += 1;
  }

  /** Ends a `hold`; the last one hands the frames gathered meanwhile to the stream, in one write. */
  release(): void {
    this.held -= 1;
    if (this.held === 0) this.flush();
  }

  /** Adds a frame to the batch; the error (already reported through `onError`) when it cannot be written. */
  private enqueue(frame: object): Batch | Error {
    const msg = frame as Message;
    // Serialized now, so the backlog is counted in bytes (and a frame that cannot be serialized fails alone, at once).
    let text: string;
    try {
      text = `${stringify(msg)}\n`;
    } catch (error) {
      this.fail(error as Error, msg);
      return error as Error;
    }
    if (this.writable.destroyed || this.writable.writableEnded) {
      const error = new Error('write after the output stream closed');
      this.fail(error, msg);
      return error;
    }
    const batch = (this.batch ??= { frames: [], bytes: 0, first: msg });
    const bytes = Buffer.byteLength(text);
    batch.frames.push(text);
    batch.bytes += bytes;
    this.track(bytes);
    if (!this.flushScheduled && !this.blocked && this.held === 0) {
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
    return batch;
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
      const error = new Error('write after the output stream closed');
      this.fail(error, batch.first);
      batch.reject?.(error);
      return;
    }
    const text = batch.frames.length === 1 ? batch.frames[0]! : batch.frames.join('');
    const ok = this.writable.write(text, (error) => {
      this.track(-batch.bytes);
      if (error) {
        this.fail(error, batch.first);
        batch.reject?.(error);
      } else batch.resolve?.();
    });
    if (!ok) this.blocked = true;
  }

  private fail(error: Error, msg: Message): void {
    this.errorCount += 1;
    this.fireError(error, msg, this.errorCount);
  }
}
