/**
 * Caps what one result hands the model. Both ends matter (a command's first lines say what it
 * did, its last lines whether it worked), so the middle is cut, with a note saying how much.
 */
import { SECRET_WORD_MAX as WORD_MAX } from '../secrets/redactor.ts';

export interface ClipLimits {
  maxBytes: number;
  maxLines: number;
}

/** Room left for the truncation note. */
const NOTE_BYTES = 160;

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

function countLines(s: string): number {
  if (s === '') return 0;
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n += 1;
  return s.endsWith('\n') ? n : n + 1;
}

/** The longest prefix of `s` within `max` bytes, not splitting a UTF-8 character. */
function prefixBytes(s: string, max: number): string {
  const buf = Buffer.from(s, 'utf8');
  if (buf.length <= max) return s;
  let end = max;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end -= 1;
  return buf.subarray(0, end).toString('utf8');
}

function suffixBytes(s: string, max: number): string {
  const buf = Buffer.from(s, 'utf8');
  if (buf.length <= max) return s;
  let start = buf.length - max;
  while (start < buf.length && (buf[start]! & 0xc0) === 0x80) start += 1;
  return buf.subarray(start).toString('utf8');
}

/** The first whole lines of `s` within the budgets (a single over-long line is cut by bytes). */
function headOf(s: string, maxBytes: number, maxLines: number): string {
  let end = 0;
  for (let line = 0; line < maxLines; line += 1) {
    const nl = s.indexOf('\n', end);
    const next = nl === -1 ? s.length : nl + 1;
    if (bytes(s.slice(0, next)) > maxBytes) break;
    end = next;
    if (nl === -1) break;
  }
  return end === 0 && maxLines > 0 ? withoutCutWord(s, prefixBytes(s, maxBytes), 'end') : s.slice(0, end);
}

/**
 * A line cut by bytes loses the word the cut went through (up to SECRET_WORD_MAX characters: no key is longer):
 * half a secret is not recognised by the redactor, which only knows secrets whole.
 */
function withoutCutWord(whole: string, kept: string, side: 'start' | 'end'): string {
  if (side === 'end') {
    const after = /^\S*/.exec(whole.slice(kept.length))![0].length;
    const before = /\S*$/.exec(kept)![0].length;
    return after > 0 && before + after <= WORD_MAX ? kept.slice(0, kept.length - before) : kept;
  }
  const before = /\S*$/.exec(whole.slice(0, whole.length - kept.length))![0].length;
  const after = /^\S*/.exec(kept)![0].length;
  return before > 0 && before + after <= WORD_MAX ? kept.slice(after) : kept;
}

function tailOf(s: string, maxBytes: number, maxLines: number): string {
  let start = s.length;
  // Skip the final newline so it does not count as an empty last line.
  let searchFrom = s.endsWith('\n') ? s.length - 2 : s.length - 1;
  for (let line = 0; line < maxLines && start > 0; line += 1) {
    const nl = searchFrom < 0 ? -1 : s.lastIndexOf('\n', searchFrom);
    const next = nl + 1;
    if (bytes(s.slice(next)) > maxBytes) break;
    start = next;
    searchFrom = nl - 1;
    if (nl === -1) break;
  }
  return start === s.length && maxLines > 0 ? withoutCutWord(s, suffixBytes(s, maxBytes), 'start') : s.slice(start);
}

/**
 * Joins the kept head and tail of an output whose full size was `totalBytes`/`totalLines`.
 * `head` and `tail` are the start and the end of the output (they may be the same full text).
 */
export function clipParts(head: string, tail: string, totalBytes: number, totalLines: number, limits: ClipLimits): string {
  // The note takes one line and up to NOTE_BYTES, so the clipped text itself stays within the limits.
  const lines = Math.max(2, limits.maxLines - 1);
  const budget = Math.max(2, limits.maxBytes - Math.min(NOTE_BYTES, Math.floor(limits.maxBytes / 4)));
  const keptHead = headOf(head, Math.floor(budget / 2), Math.floor(lines / 2));
  const keptTail = tailOf(tail, Math.ceil(budget / 2), Math.ceil(lines / 2));
  const cutBytes = totalBytes - bytes(keptHead) - bytes(keptTail);
  const cutLines = Math.max(0, totalLines - countLines(keptHead) - countLines(keptTail));
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const cut = cutLines > 0 ? `${plural(cutLines, 'line')} (${cutBytes} bytes)` : `${cutBytes} bytes`;
  const note = `[… output truncated: ${cut} cut from the middle; ${plural(totalLines, 'line')}, ${totalBytes} bytes in all …]`;
  return `${keptHead}${keptHead.endsWith('\n') || keptHead === '' ? '' : '\n'}${note}\n${keptTail}`;
}

/** `text` itself when within the limits, else its head and tail with a note. */
export function clipOutput(text: string, limits: ClipLimits): string {
  const total = bytes(text);
  const lines = countLines(text);
  if (total <= limits.maxBytes && lines <= limits.maxLines) return text;
  return clipParts(text, text, total, lines, limits);
}

/**
 * Collects streamed output without holding all of it: once it outgrows twice the byte limit only
 * the head and a rolling tail are kept, with totals for the truncation note.
 */
export class OutputCapture {
  private full = '';
  private head = '';
  private tail = '';
  private overflowed = false;
  private totalBytes = 0;
  private newlines = 0;
  private endsWithNewline = true;

  constructor(private readonly limits: ClipLimits) {}

  push(text: string): void {
    if (text === '') return;
    this.totalBytes += bytes(text);
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.newlines += 1;
    this.endsWithNewline = text.endsWith('\n');
    if (!this.overflowed) {
      this.full += text;
      if (this.full.length <= this.limits.maxBytes * 2) return;
      this.overflowed = true;
      this.head = prefixBytes(this.full, this.limits.maxBytes);
      this.tail = suffixBytes(this.full, this.limits.maxBytes);
      this.full = '';
      return;
    }
    this.tail = suffixBytes(this.tail + text, this.limits.maxBytes);
  }

  /**
   * The last `n` lines seen, for progress previews. A word still being written, or cut by the rolling
   * tail, is left out: it may be part of a secret, which the redactor only recognises whole.
   */
  lastLines(n: number): string {
    let source = this.overflowed ? this.tail.replace(/^[^\s]+/, '') : this.full;
    if (!this.endsWithNewline) source = source.replace(/[^\s]+$/, '');
    return source.replace(/\s+$/, '').split('\n').slice(-n).join('\n');
  }

  get empty(): boolean {
    return this.totalBytes === 0;
  }

  text(): string {
    if (!this.overflowed) return clipOutput(this.full, this.limits);
    const lines = this.newlines + (this.endsWithNewline ? 0 : 1);
    return clipParts(this.head, this.tail, this.totalBytes, lines, this.limits);
  }
}
