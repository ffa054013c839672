import type { Writable } from 'node:stream';
import { AbstractMessageWriter, type Message } from 'vscode-jsonrpc/node';

/**
 * Writes JSON-RPC frames as newline-delimited JSON: one `write` per frame, frames in call order,
 * and the next frame waits for `drain` when the stream pushes back.
 */
export class NdjsonMessageWriter extends AbstractMessageWriter {
  private queue: Promise<void> = Promise.resolve();
  private errorCount = 0;

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
    const next = this.queue.then(() => this.writeFrame(msg));
    // The queue must survive a failed frame; the caller still sees the failure.
    this.queue = next.catch(() => undefined);
    return next;
  }

  end(): void {
    this.writable.end();
  }

  private writeFrame(msg: Message): Promise<void> {
    const frame = `${JSON.stringify(msg)}\n`;
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
