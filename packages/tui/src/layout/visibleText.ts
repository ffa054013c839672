/**
 * Shows text so that nothing in it can hide. `visibleText` spells out control characters, for output
 * and questions. `revealText` is for what a human approves (a command, the gate's findings): there a
 * character that is invisible, or looks like shell syntax without being it, changes what the human
 * thinks will run, so each becomes a marker such as `⟨U+FF07⟩` or `⟨ESC⟩`. `echo ＇; rm -rf x; echo ＇`
 * then reads `echo ⟨U+FF07⟩; rm -rf x; echo ⟨U+FF07⟩`: plainly not quoted. Ordinary non-ASCII text
 * (accents, CJK) stays as it is.
 */

/**
 * Joiners (U+200D) and emoji presentation selectors (U+FE0F) make one glyph of several (👩‍👩‍👧‍👦, 🏳️‍🌈) for
 * string-width, which Ink lays out with, while most terminals (xterm.js, VTE, pyte; anything that reads
 * widths a code point at a time) draw each part in its own cells. Laid out by one and drawn by the other,
 * a line is wider than Ink thinks: it wraps, and Ink then erases too few rows when it redraws. Without them
 * both count each part, so what is drawn is what was laid out (a terminal that would have joined them
 * shows the parts side by side).
 */
export function terminalText(text: string): string {
  return text.replace(/[\u200D\uFE0F]/g, '');
}

/**
 * Makes text safe to show as-is: tabs become spaces and control characters (escape sequences above
 * all) are spelled out, so a command cannot hide part of itself from the person approving it; see
 * `terminalText` for what else goes.
 */
export function visibleText(text: string): string {
  return (
    terminalText(text)
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, '    ')
      // eslint-disable-next-line no-control-regex
      .replace(/[\x00-\x09\x0b-\x1f\x7f\x80-\x9f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`)
  );
}

/**
 * Text from the model or the backend as the transcript shows it: escape sequences (colours, window
 * titles, OSC 52 clipboard writes, cursor moves) are dropped, so what the model writes cannot act on the
 * terminal, and other control characters are spelled out as `visibleText` does.
 */
export function displayText(text: string): string {
  return visibleText(
    text
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\][\s\S]*?(?:\x07|\x1b\\|$)/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b[P^_X][\s\S]*?(?:\x1b\\|$)/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b[ -/]*[0-~]/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/\x9b[0-?]*[ -/]*[@-~]/g, ''),
  );
}

/** A marker `revealText` writes. A literal `⟨` is itself marked, so every `⟨` in its output starts one. */
export const MARKER = /\u27e8(?:U\+[0-9A-F]{4,6}|[A-Z]{2,3})\u27e9/u;

/** Control characters with a name a reader knows. */
const CONTROL_NAMES: Record<number, string> = { 0x00: 'NUL', 0x07: 'BEL', 0x08: 'BS', 0x0b: 'VT', 0x0c: 'FF', 0x0d: 'CR', 0x1b: 'ESC', 0x7f: 'DEL' };

/** A character class of the ranges given, each written as regex source. */
const charClass = (ranges: readonly string[]) => new RegExp(`[${ranges.join('')}]`, 'u');

/** Characters that show as nothing, as a space, or that rearrange or overwrite what is around them. */
const HIDDEN = charClass([
  // Controls, format characters (zero-width, bidi, soft hyphen, BOM, tags), private use, unassigned,
  // lone surrogates, line and paragraph separators.
  '\\p{Cc}\\p{Cf}\\p{Co}\\p{Cn}\\p{Cs}\\p{Zl}\\p{Zp}',
  // Spaces other than U+0020: a shell does not split words on them.
  '\\u00A0\\u1680\\u2000-\\u200A\\u202F\\u205F\\u3000',
  // Fillers, invisible marks and variation selectors.
  '\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u2800\\u3164\\uFE00-\\uFE0F\\u{E0100}-\\u{E01EF}',
  // The marker's own brackets, so that text cannot pass for a marker.
  '\\u27E8\\u27E9',
]);

/**
 * Non-ASCII lookalikes of shell syntax. Not exhaustive: the gate, not this list, decides what is
 * dangerous; this only keeps the human from misreading the command.
 */
const LOOKALIKE = charClass([
  '\\uFF00-\\uFFEF', // fullwidth and halfwidth forms: ＇ ＂ ； ｜ ＄ …
  '\\uFE10-\\uFE19\\uFE30-\\uFE6F', // vertical, CJK compatibility and small forms: ﹔ ﹩ …
  '\\u2018-\\u201F\\u2032-\\u2037\\u00B4\\u02B9-\\u02BC\\u02C8\\u02CA\\u02CB\\u02EE', // quotes, primes, accents
  '\\u037E', // the Greek question mark, drawn as a semicolon
  '\\u2044\\u2215\\u2216\\u29F5\\u29F8\\u29F9', // slashes and backslashes
  '\\u01C0\\u05C0\\u2223\\u23D0\\u2758', // vertical bars
  '\\u2010-\\u2013\\u2043\\u2212', // hyphens and the minus sign (not the em dash of prose)
  '\\u2024\\u2025', // one- and two-dot leaders
  '\\u066D\\u204E\\u2217', // asterisks
  '\\u02DC\\u2053\\u223C', // tildes
  '\\u02D0\\u2236\\uA789', // colons
  '\\u02C2\\u02C3\\u2039\\u203A\\u1433\\u1438', // angle brackets
]);

function marker(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  return `⟨${CONTROL_NAMES[code] ?? `U+${code.toString(16).toUpperCase().padStart(4, '0')}`}⟩`;
}

export interface RevealOptions {
  /** Mark lookalikes of shell syntax too (default). Off for text that is not a command, such as a diff. */
  lookalikes?: boolean;
}

/** `text` with every hidden character and (by default) every lookalike of shell syntax as a marker. */
export function revealText(text: string, { lookalikes = true }: RevealOptions = {}): string {
  let out = '';
  for (const char of text.replace(/\r\n/g, '\n')) {
    if (char === '\n') out += char;
    else if (char === '\t') out += '    ';
    else if (HIDDEN.test(char) || (lookalikes && LOOKALIKE.test(char))) out += marker(char);
    else out += char;
  }
  return out;
}

export interface Span {
  text: string;
  /** A marker from `revealText`, drawn in its own colour. */
  marked: boolean;
}

/** Splits revealed text into plain runs and markers, for drawing the markers apart. */
export function markedSpans(text: string): Span[] {
  const spans: Span[] = [];
  const markers = new RegExp(MARKER.source, 'gu');
  let last = 0;
  for (const match of text.matchAll(markers)) {
    if (match.index > last) spans.push({ text: text.slice(last, match.index), marked: false });
    spans.push({ text: match[0], marked: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) spans.push({ text: text.slice(last), marked: false });
  return spans;
}
