/**
 * Styled text wrapped to a width, byte for byte as wrap-ansi 10 wraps it with `{hard: true}` (trimmed) or
 * `{hard: true, trim: false}`, at a fraction of its cost. Streaming a long reply spent about a fifth of
 * the TUI's time in wrap-ansi (it splits every run into graphemes, normalizes it, and reads every SGR
 * sequence through regular expressions); the text it wrapped was our own: printable characters, chalk's
 * SGR styles and OSC 8 hyperlinks.
 *
 * The fast path takes exactly that: printable ASCII, other characters that are each a grapheme of their
 * own and of width 1 or 2 and that NFC leaves alone (see `charWidth`), spaces, newlines, SGR sequences
 * without colons and OSC 8 hyperlinks. Anything else (tabs, carriage returns, other escape sequences,
 * combining marks, joiners, flags, other spaces) goes to wrap-ansi itself, for the whole text. Its steps
 * follow wrap-ansi's `exec` one for one, so the rules below are wrap-ansi's, not choices of ours.
 */
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';
import { escapeEnd, joinStyledRows } from './rowStyles.ts';

export interface WrapOptions {
  hard: true;
  trim?: boolean;
}

/** `text` wrapped to `columns` as `wrapAnsi(text, columns, options)` wraps it. */
export function wrapStyled(text: string, columns: number, options: WrapOptions): string {
  if (options.hard !== true || !Number.isInteger(columns) || columns < 1) return wrapAnsi(text, columns, options);
  const trim = options.trim !== false;
  let out = '';
  for (let start = 0; ; ) {
    const end = text.indexOf('\n', start);
    const wrapped = wrapLine(end === -1 ? text.slice(start) : text.slice(start, end), columns, trim);
    if (wrapped === undefined) return wrapAnsi(text, columns, options);
    out += wrapped;
    if (end === -1) return out;
    out += '\n';
    start = end + 1;
  }
}

/** Width of each BMP character the fast path has met: 0 not yet looked at, 1 or 2 its width, 3 refused. */
const bmpWidths = new Uint8Array(0x10000);
const astralWidths = new Map<number, number>();
const REFUSED = 3;
const segmenter = new Intl.Segmenter();

const graphemes = (text: string) => {
  let count = 0;
  for (const _ of segmenter.segment(text)) count++;
  return count;
};

/**
 * The width of code point `code` (not printable ASCII), or 0 if the fast path must refuse it. It takes a
 * character only if wrap-ansi would treat it as we do: NFC leaves it alone (wrap-ansi normalizes the
 * text), it is not white space (`trim` strips those), string-width gives it 1 or 2 cells, and it is a
 * grapheme of its own beside any character, which the segmenter wrap-ansi uses is asked: after and
 * before a letter (marks, joiners and prepended signs join one), and after itself (regional indicators
 * and Hangul jamo join their kind). Two characters that pass can never join: every rule that joins two
 * graphemes needs one of those.
 */
export function charWidth(code: number): number {
  let width = code < 0x10000 ? bmpWidths[code] : (astralWidths.get(code) ?? 0);
  if (width === 0) {
    const char = String.fromCodePoint(code);
    width = code < 0xa0 || /\s/.test(char) || char.normalize() !== char ? REFUSED : stringWidth(char);
    if ((width !== 1 && width !== 2) || graphemes(`a${char}a`) !== 3 || graphemes(char + char) !== 2) width = REFUSED;
    if (code < 0x10000) bmpWidths[code] = width;
    // Replies use a few astral characters (emoji); text that cycles through thousands is measured each time.
    else if (astralWidths.size < 4096) astralWidths.set(code, width);
  }
  return width === REFUSED ? 0 : width;
}

/** One line's rows as wrap-ansi's `exec` builds them, with the width of each and where its last visible character ends. */
class Rows {
  readonly texts: string[] = [];
  readonly widths: number[] = [];
  readonly visibleEnds: number[] = [];
  text = '';
  width = 0;
  visibleEnd = 0;

  push(): void {
    this.texts.push(this.text);
    this.widths.push(this.width);
    this.visibleEnds.push(this.visibleEnd);
    this.text = '';
    this.width = 0;
    this.visibleEnd = 0;
  }

  /** Appends `line.slice(start, end)`, whose last visible character ends at `visibleEnd` (-1 if it has none). */
  append(line: string, start: number, end: number, width: number, visibleEnd: number): void {
    if (visibleEnd !== -1) this.visibleEnd = this.text.length + visibleEnd - start;
    this.text += line.slice(start, end);
    this.width += width;
  }

  /**
   * wrap-ansi's `wrapWord`: the word `line.slice(start, end)`, wider than a row, cut at the row's edge
   * one character at a time (a wide one that would cross the edge starts the next row).
   */
  cut(line: string, start: number, end: number, columns: number): void {
    for (let index = start; index < end; ) {
      const code = line.codePointAt(index) as number;
      const next = code === 0x1b ? escapeEnd(line, index) : index + (code > 0xffff ? 2 : 1);
      const width = code === 0x1b ? 0 : code < 0x7f ? 1 : charWidth(code);
      if (width > 0 && this.width > 0 && this.width + width > columns) this.push();
      this.append(line, index, next, width, width > 0 ? next : -1);
      index = next;
      if (this.width === columns && index < end) this.push();
    }
    // A last row holding only escape sequences goes back onto the row before it.
    if (this.width === 0 && this.text.length > 0 && this.texts.length > 0) {
      this.text = (this.texts.pop() as string) + this.text;
      this.width = this.widths.pop() as number;
      this.visibleEnd = this.visibleEnds.pop() as number;
    }
  }

  /**
   * All rows, the spaces after each row's last visible character dropped when `trim` (wrap-ansi's
   * `stringVisibleTrimSpacesRight`: the escape sequences among them stay).
   */
  finish(trim: boolean): string[] {
    this.push();
    if (trim) {
      this.texts.forEach((text, row) => {
        const end = this.visibleEnds[row];
        if (end < text.length) this.texts[row] = text.slice(0, end) + withoutSpaces(text.slice(end));
      });
    }
    return this.texts;
  }
}

/** `tail` (spaces and escape sequences) without its spaces; a hyperlink's URI may hold one, which stays. */
function withoutSpaces(tail: string): string {
  if (!tail.includes('\u001b')) return '';
  let out = '';
  for (let index = 0; index < tail.length; ) {
    if (tail.charCodeAt(index) === 0x20) index++;
    else {
      const end = escapeEnd(tail, index);
      out += tail.slice(index, end);
      index = end;
    }
  }
  return out;
}

/** One line (no newline) wrapped as wrap-ansi's `exec` wraps it, or undefined if it holds what the fast path refuses. */
function wrapLine(line: string, columns: number, trim: boolean): string | undefined {
  if (trim && line.trim() === '') return '';
  const rows = new Rows();
  let escapes = false;
  for (let index = 0, first = true; ; index++, first = false) {
    // A word runs to the next space outside an escape sequence; its escape sequences are part of it.
    const start = index;
    let width = 0;
    let visibleEnd = -1;
    while (index < line.length) {
      const code = line.charCodeAt(index);
      if (code === 0x20) break;
      if (code > 0x20 && code < 0x7f) {
        width++;
        visibleEnd = ++index;
      } else if (code === 0x1b) {
        index = escapeEnd(line, index);
        if (index === -1) return undefined;
        escapes = true;
      } else {
        const point = line.codePointAt(index) as number;
        const cells = charWidth(point);
        if (cells === 0) return undefined;
        width += cells;
        visibleEnd = index += point > 0xffff ? 2 : 1;
      }
    }
    if (!first) {
      // Untrimmed, a full row ends before the space; trimmed, a space never starts a row.
      if (!trim && rows.width >= columns) rows.push();
      if (rows.width > 0 || !trim) rows.append(' ', 0, 1, 1, -1);
    }
    if (width > columns) {
      // A word wider than a row starts on a new row if that takes no more rows than starting it here.
      const room = columns - rows.width;
      if (Math.floor((width - 1) / columns) < 1 + Math.floor((width - room - 1) / columns)) rows.push();
      rows.cut(line, start, index, columns);
    } else {
      if (rows.width + width > columns && rows.width > 0 && width > 0) rows.push();
      rows.append(line, start, index, width, visibleEnd);
    }
    if (index >= line.length) break;
  }
  const texts = rows.finish(trim);
  return escapes && texts.length > 1 ? joinStyledRows(texts) : texts.join('\n');
}
