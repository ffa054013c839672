import type { Writable } from 'node:stream';
import { AbstractMessageWriter, type Message } from 'vscode-jsonrpc/node';

// Taken when the transport loads, before any plugin: code that replaces JSON.stringify later cannot
// change what goes on the wire.
const stringify = JSON.stringify;

/**
 * Writes JSON-RPC frames as newline-delimited JSON: one `write` per frame, frames in call order,
 * and the next frame waits for `drain` when the stream pushes back.
 */
export class NdjsonMessageWriter extends AbstractMessageWriter {
  private queue: Promise<void> = Promise.resolve();
  private errorCount = 0;
  /** Bytes of frames written to this writer and not yet flushed to the stream. */
  private queuedBytes = 0;
  private readonly backlogListeners: (() => void)[] = [];

  constructor(
    private readonly writable: Writable,
    /** Rewrites each message on its way out; null holds it back (see RequestGate.outgoing). */
    private readonly outgoing?: (message: Message) => object | null,
  ) {
    super();
    writable.on('error', (error: Error) => this.fireError(error));
    writable.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    const frame = this.outgoing ? this.outgoing(msg) : msg;
    if (frame === null) return Promise.resolve();
    return this.writeVerbatim(frame);
  }

  /** Writes a frame as it is, past the `outgoing` rewrite (answers to bad frames, whole batches). */
  writeVerbatim(frame: object): Promise<void> {
    const msg = frame as Message;
    // Serialized now, so the backlog is counted in bytes (and a frame that cannot be serialized fails at once).
    let text: string;
    try {
      text = `${stringify(msg)}\n`;
    } catch (error) {
      return new Promise<void>((_resolve, reject) => this.fail(error as Error, msg, reject));
    }
    const bytes = Buffer.byteLength(text);
    this.track(bytes);
    const next = this.queue.then(() => this.writeFrame(text, msg)).finally(() => this.track(-bytes));
    // The queue must survive a failed frame; the caller still sees the failure.
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Bytes waiting to be flushed (the peer may not be reading). */
  get backlogBytes(): number {
    return this.queuedBytes;
  }

  /** Told each time `backlogBytes` changes. */
  onBacklog(listener: () => void): void {
    this.backlogListeners.push(listener);
  }

  private track(delta: number): void {
    this.queuedBytes += delta;
    for (const listener of this.backlogListeners) listener();
  }

  end(): void {
    this.writable.end();
  }

  private writeFrame(frame: string, msg: Message): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.writable.destroyed || this.writable.writableEnded) {
        this.fail(new Error('write after the output stream closed'), msg, reject);
        return;
      }
      let flushed = false;
      let drained = true;
      const settle = () => {
        if (flushed && drained) resolve();
      };
      const ok = this.writable.write(frame, (error) => {
        if (error) {
          this.fail(error, msg, reject);
          return;
        }
        flushed = true;
        settle();
      });
      if (!ok) {
        drained = false;
        this.writable.once('drain', () => {
          drained = true;
          settle();
        });
      }
    });
  }

  private fail(error: Error, msg: Message, reject: (e: Error) => void): void {
    this.errorCount += 1;
    this.fireError(error, msg, this.errorCount);
    reject(error);
  }
}
