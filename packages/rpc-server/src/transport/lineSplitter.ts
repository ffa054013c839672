/**
 * Splits a byte stream into lines on the byte 0x0A. Only the newly pushed chunk is scanned, so a long
 * line arriving in many small chunks costs O(n), and lines are decoded only once they are whole, so a
 * multi-byte character split across chunks survives. A line that lies whole in one chunk (the usual
 * case) is decoded straight from it, without copying its bytes first.
 */
export type SplitResult = { kind: 'line'; text: string } | { kind: 'overflow'; bytes: number };

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BYTE_ORDER_MARK = 0xfeff;

/**
 * The text of `bytes[start, end)` without a final CR and a leading byte-order mark; null when it is
 * blank. Invalid UTF-8 becomes U+FFFD, as TextDecoder makes it.
 */
function lineText(bytes: Buffer, start: number, end: number): string | null {
  if (end > start && bytes[end - 1] === CARRIAGE_RETURN) end -= 1;
  let text = bytes.toString('utf8', start, end);
  if (text.charCodeAt(0) === BYTE_ORDER_MARK) text = text.slice(1);
  return text.trim().length === 0 ? null : text;
}

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** True while the bytes of an over-long line are being thrown away up to its newline. */
  private discarding = false;
  private discardedBytes = 0;

  constructor(private readonly maxLineBytes: number) {}

  /** Feeds a chunk; returns the lines (and overflows) it completed, in order. */
  push(chunk: Uint8Array): SplitResult[] {
    const out: SplitResult[] = [];
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    if (this.pendingBytes === 0 && !this.discarding) {
      for (let nl = buf.indexOf(NEWLINE); nl !== -1 && nl - start <= this.maxLineBytes; nl = buf.indexOf(NEWLINE, start)) {
        const text = lineText(buf, start, nl);
        if (text !== null) out.push({ kind: 'line', text });
        start = nl + 1;
      }
    }
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
    const line = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    const text = lineText(line, 0, line.length);
    if (text !== null) out.push({ kind: 'line', text });
  }
}
