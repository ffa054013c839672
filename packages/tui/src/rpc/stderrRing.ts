/**
 * Keeps the last lines a child wrote to stderr. The backend's stderr never reaches the screen; it is
 * shown only as the tail of a startup or exit error, so a bounded buffer is all we need.
 */
export class StderrRing {
  private readonly lines: string[] = [];
  private partial = '';
  private readonly decoder = new TextDecoder();

  constructor(private readonly capacity = 200) {}

  push(chunk: Uint8Array | string): void {
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    const pieces = (this.partial + text).split('\n');
    this.partial = pieces.pop() ?? '';
    for (const piece of pieces) this.add(piece.replace(/\r$/, ''));
    // A child that writes megabytes without a newline must not grow the buffer without bound.
    if (this.partial.length > 10_000) {
      this.add(this.partial);
      this.partial = '';
    }
  }

  /** The last `count` lines, including an unterminated last line. */
  tail(count = this.capacity): string[] {
    const all = this.partial ? [...this.lines, this.partial] : [...this.lines];
    return all.slice(-count);
  }

  private add(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
  }
}
