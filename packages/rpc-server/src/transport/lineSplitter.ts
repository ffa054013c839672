/**
 * Splits a byte stream into lines on the byte 0x0A. Only the newly pushed chunk is scanned, so a long
 * line arriving in many small chunks costs O(n), and lines are decoded only once they are whole, so a
 * multi-byte character split across chunks survives.
 */
export type SplitResult = { kind: 'line'; text: string } | { kind: 'overflow'; bytes: number };

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** True while the bytes of an over-long line are being thrown away up to its newline. */
  private discarding = false;
  private discardedBytes = 0;
  private readonly decoder = new TextDecoder('utf-8');

  constructor(private readonly maxLineBytes: number) {}

  /** Feeds a chunk; returns the lines (and overflows) it completed, in order. */
  push(chunk: Uint8Array): SplitResult[] {
    const out: SplitResult[] = [];
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    while (start < buf.length) {
      const nl = buf.indexOf(NEWLINE, start);
      const end = nl === -1 ? buf.length : nl;
      this.take(buf.subarray(start, end));
      if (nl === -1) break;
      this.finishLine(out);
      start = nl + 1;
    }
    return out;
  }

  /** Flushes a final line that had no newline (the stream ended). */
  end(): SplitResult[] {
    const out: SplitResult[] = [];
    if (this.pendingBytes > 0 || this.discarding) this.finishLine(out);
    return out;
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.discarding) {
      this.discardedBytes += part.length;
      return;
    }
    if (this.pendingBytes + part.length > this.maxLineBytes) {
      this.discarding = true;
      this.discardedBytes = this.pendingBytes + part.length;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    this.pending.push(part);
    this.pendingBytes += part.length;
  }

  private finishLine(out: SplitResult[]): void {
    if (this.discarding) {
      out.push({ kind: 'overflow', bytes: this.discardedBytes });
      this.discarding = false;
      this.discardedBytes = 0;
      return;
    }
    let line = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    if (line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN) line = line.subarray(0, line.length - 1);
    const text = this.decoder.decode(line);
    if (text.trim().length === 0) return;
    out.push({ kind: 'line', text });
  }
}
