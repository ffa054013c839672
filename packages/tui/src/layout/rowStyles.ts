/**
 * The SGR styles and OSC 8 hyperlink open at each row break, closed before it and reopened after it the
 * way wrap-ansi 10 does (its `restoreStylesAcrossRows`), byte for byte: wrapStyled.ts draws rows that must
 * equal wrap-ansi's. Only the escape sequences wrapStyled.ts lets through reach this module: `ESC [ digits
 * and semicolons m`, and `ESC ] 8 ; parameters ; uri` ended by BEL or `ESC \`.
 */

const ESC = '\u001B';
const BEL = '\u0007';

/** One style as wrap-ansi tracks it: a family replaces its own kind (a colour the last colour). */
interface ActiveStyle {
  family: string;
  open: string;
  close: number;
}

/** One code of an SGR sequence as wrap-ansi reads it (`getSgrTokens`). */
interface SgrToken {
  code: number;
  open: string;
  hasArguments: boolean;
}

interface Hyperlink {
  parameters: string;
  uri: string;
}

/**
 * ansi-styles' (6.2) open codes of modifiers and their close codes, which wrap-ansi reads from
 * `ansiStyles.codes` (a test holds this table to that map; colours are told apart by range instead).
 */
export const MODIFIER_CLOSE = new Map<number, number>([
  [1, 22],
  [2, 22],
  [3, 23],
  [4, 24],
  [53, 55],
  [7, 27],
  [8, 28],
  [9, 29],
]);
/** Every close code of ansi-styles but 0: one of these ends the modifiers it closes (39 and 49 end colours first). */
const CLOSE_CODES = new Set([...MODIFIER_CLOSE.values(), 39, 49]);

const sgr = (code: number | string) => `${ESC}[${code}m`;
const LINK_CLOSE = `${ESC}]8;;${BEL}`;

/** The codes of SGR `parameters` (what lies between `ESC [` and `m`), read exactly as wrap-ansi reads them. */
function sgrTokens(parameters: string): SgrToken[] {
  const parts = parameters.split(';');
  const tokens: SgrToken[] = [];
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index];
    const code = part === '' ? 0 : Number.parseInt(part, 10);
    if (!Number.isFinite(code)) continue;
    if (code === 38 || code === 48 || code === 58) {
      if (index + 1 >= parts.length) break;
      const mode = Number.parseInt(parts[index + 1], 10);
      const colorIndex = Number.parseInt(parts[index + 2], 10);
      if (mode === 5 && Number.isFinite(colorIndex)) {
        tokens.push({ code, open: [code, mode, colorIndex].join(';'), hasArguments: true });
        index += 2;
        continue;
      }
      const [red, green, blue] = [2, 3, 4].map((offset) => Number.parseInt(parts[index + offset], 10));
      if (mode === 2 && Number.isFinite(red) && Number.isFinite(green) && Number.isFinite(blue)) {
        tokens.push({ code, open: [code, mode, red, green, blue].join(';'), hasArguments: true });
        index += 4;
        continue;
      }
      break;
    }
    tokens.push({ code, open: String(code), hasArguments: false });
  }
  return tokens;
}

function removeFamily(active: ActiveStyle[], family: string): void {
  const index = active.findIndex((style) => style.family === family);
  if (index !== -1) active.splice(index, 1);
}

function upsert(active: ActiveStyle[], style: ActiveStyle): void {
  removeFamily(active, style.family);
  active.push(style);
}

/** Applies `code` if it resets something (wrap-ansi's `applySgrResetCode`); says whether it did. */
function applyReset(code: number, active: ActiveStyle[]): boolean {
  if (code === 0) {
    active.length = 0;
    return true;
  }
  if (code === 39) removeFamily(active, 'foreground');
  else if (code === 49) removeFamily(active, 'background');
  else if (code === 59) removeFamily(active, 'underlineColor');
  else if (CLOSE_CODES.has(code)) {
    for (let index = active.length - 1; index >= 0; index--) {
      if (active[index].family.startsWith('modifier-') && active[index].close === code) active.splice(index, 1);
    }
  } else return false;
  return true;
}

function colorFamily({ code, hasArguments }: SgrToken): [string, number] | undefined {
  if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97) || (code === 38 && hasArguments)) return ['foreground', 39];
  if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107) || (code === 48 && hasArguments)) return ['background', 49];
  if (code === 58 && hasArguments) return ['underlineColor', 59];
  return undefined;
}

function applyToken(token: SgrToken, active: ActiveStyle[]): void {
  if (applyReset(token.code, active)) return;
  const color = colorFamily(token);
  if (color) {
    upsert(active, { family: color[0], open: token.open, close: color[1] });
    return;
  }
  const close = MODIFIER_CLOSE.get(token.code);
  if (close !== undefined) upsert(active, { family: `modifier-${token.code}`, open: token.open, close });
}

/**
 * The end of the escape sequence that starts at `index` of `text` (an ESC), or -1 if none of the kinds
 * this module tracks starts there. The forms are wrap-ansi's own patterns, narrowed: an SGR without
 * colons, and an OSC 8 hyperlink; every other sequence is left to wrap-ansi.
 */
export function escapeEnd(text: string, index: number): number {
  const kind = text.charCodeAt(index + 1);
  if (kind === 0x5b) {
    let end = index + 2;
    for (let c = text.charCodeAt(end); (c >= 0x30 && c <= 0x39) || c === 0x3b; c = text.charCodeAt(++end));
    return text.charCodeAt(end) === 0x6d ? end + 1 : -1;
  }
  if (kind !== 0x5d || text.charCodeAt(index + 2) !== 0x38 || text.charCodeAt(index + 3) !== 0x3b) return -1;
  // Parameters run to the next ';' and the URI to the next control character, which must end the sequence.
  let end = index + 4;
  for (let c = text.charCodeAt(end); c !== 0x3b && !isControl(c); c = text.charCodeAt(++end));
  if (text.charCodeAt(end) !== 0x3b) return -1;
  for (let c = text.charCodeAt(++end); !isControl(c); c = text.charCodeAt(++end));
  if (text.charCodeAt(end) === 0x07) return end + 1;
  return text.charCodeAt(end) === 0x1b && text.charCodeAt(end + 1) === 0x5c ? end + 2 : -1;
}

/** C0, DEL and C1 (and NaN, past the end of the text), which no sequence's payload may hold. */
const isControl = (c: number) => !(c >= 0x20 && c < 0x7f) && !(c > 0x9f);

/** Our styling uses a few dozen sequences; odd input could spell endless others, which are then not kept. */
const CACHED_PER_SET = 200;

/**
 * A set of open styles. Rows of a reply open and close the same few styles again and again, so what a
 * sequence turns a set into, and the sequences that close and reopen it, are worked out once per set.
 */
class Styles {
  /** SGR parameters → the set after them. */
  private readonly after = new Map<string, Styles>();
  /** The SGR parameters that start a row (`leadingSgr`) → what reopens this set before that row. */
  private readonly reopenings = new Map<string, string>();
  readonly closing: string;

  constructor(
    private readonly graph: StylesGraph,
    readonly active: readonly ActiveStyle[],
  ) {
    this.closing = active.map((style) => sgr(style.close)).reverse().join('');
  }

  apply(parameters: string): Styles {
    let next = this.after.get(parameters);
    if (!next) {
      const active = [...this.active];
      for (const token of sgrTokens(parameters)) applyToken(token, active);
      next = this.graph.intern(active);
      if (this.after.size < CACHED_PER_SET) this.after.set(parameters, next);
    }
    return next;
  }

  /** What reopens this set before a row whose leading SGR sequences are `leading`: the styles they reset stay closed. */
  reopening(leading: string): string {
    let opening = this.reopenings.get(leading);
    if (opening === undefined) {
      const active = [...this.active];
      for (const parameters of leading.split('|').slice(1)) for (const { code } of sgrTokens(parameters)) applyReset(code, active);
      opening = active.map((style) => sgr(style.open)).join('');
      if (this.reopenings.size < CACHED_PER_SET) this.reopenings.set(leading, opening);
    }
    return opening;
  }
}

/** Every set of styles met, one object each, from the empty set; replaced whole when odd input has made it large. */
class StylesGraph {
  private readonly sets = new Map<string, Styles>();
  readonly empty = this.intern([]);

  intern(active: readonly ActiveStyle[]): Styles {
    const key = active.map((style) => `${style.family}\u0000${style.open}\u0000${style.close}`).join('\u0001');
    let styles = this.sets.get(key);
    if (!styles) {
      styles = new Styles(this, active);
      this.sets.set(key, styles);
    }
    return styles;
  }

  get size(): number {
    return this.sets.size;
  }
}

let graph = new StylesGraph();

/** The hyperlink an OSC 8 sequence (`text.slice(index, end)`) opens, or undefined for one that closes it. */
function linkOf(text: string, index: number, end: number): Hyperlink | undefined {
  const separator = text.indexOf(';', index + 4);
  const uri = text.slice(separator + 1, end - (text.charCodeAt(end - 1) === 0x07 ? 1 : 2));
  return uri.length === 0 ? undefined : { parameters: text.slice(index + 4, separator), uri };
}

/** The parameters of the SGR sequences that start `row`, each after a '|' (so `ESC[m` is not none); OSC 8 sequences skipped. */
function leadingSgr(row: string): string {
  let leading = '';
  for (let index = 0; row.charCodeAt(index) === 0x1b; ) {
    const end = escapeEnd(row, index);
    if (row.charCodeAt(index + 1) === 0x5b) leading += `|${row.slice(index + 2, end - 1)}`;
    index = end;
  }
  return leading;
}

/**
 * `rows` (one line's, wrapped) joined with newlines, each row break closing the open styles and
 * hyperlink and the next row reopening them (less the styles its own leading sequences reset), as
 * wrap-ansi joins them. Every ESC in `rows` starts a sequence `escapeEnd` accepts.
 */
export function joinStyledRows(rows: readonly string[]): string {
  if (graph.size > 1000) graph = new StylesGraph();
  let out = rows[0];
  let styles = graph.empty;
  let link: Hyperlink | undefined;
  for (let row = 0; row < rows.length - 1; row++) {
    const text = rows[row];
    for (let index = text.indexOf(ESC); index !== -1; ) {
      const end = escapeEnd(text, index);
      if (text.charCodeAt(index + 1) === 0x5b) styles = styles.apply(text.slice(index + 2, end - 1));
      else link = linkOf(text, index, end);
      index = text.indexOf(ESC, end);
    }
    // An empty row never reopened anything, so there is nothing to close.
    if (text.length > 0) out += (link ? LINK_CLOSE : '') + styles.closing;
    out += '\n';
    const next = rows[row + 1];
    if (next.length > 0) {
      out += styles.reopening(next.charCodeAt(0) === 0x1b ? leadingSgr(next) : '');
      if (link) out += `${ESC}]8;${link.parameters};${link.uri}${BEL}`;
    }
    out += next;
  }
  return out;
}
