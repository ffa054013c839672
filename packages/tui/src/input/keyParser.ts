/**
 * Splits raw terminal input into keys. Keystrokes arrive batched ("abc\x7fd\r" in one read when
 * typing is fast, over ssh, or in tests), escape sequences and bracketed pastes can straddle reads,
 * and Ink's own input hook handles neither, so the TUI reads stdin itself and parses it here.
 */

export type Key =
  | { type: 'text'; text: string }
  /** A bracketed paste, delivered whole: its newlines are text, not Enter. */
  | { type: 'paste'; text: string }
  /** `name` is a named key (`enter`, `left`, …) or, with ctrl/meta, the letter pressed. */
  | { type: 'key'; name: string; ctrl: boolean; meta: boolean; shift: boolean };

const ESC = '\x1b';
export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function key(name: string, modifiers: { ctrl?: boolean; meta?: boolean; shift?: boolean } = {}): Key {
  return { type: 'key', name, ctrl: modifiers.ctrl ?? false, meta: modifiers.meta ?? false, shift: modifiers.shift ?? false };
}

const CSI_LETTER: Record<string, string> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end', E: 'clear', P: 'f1', Q: 'f2', R: 'f3', S: 'f4' };
const CSI_TILDE: Record<string, string> = { '1': 'home', '2': 'insert', '3': 'delete', '4': 'end', '5': 'pageup', '6': 'pagedown', '7': 'home', '8': 'end' };

/** xterm modifier parameter: 1 + (shift 1 | alt 2 | ctrl 4). */
function modifiers(param: string | undefined) {
  const bits = Math.max(0, Number(param ?? '1') - 1);
  return { shift: (bits & 1) !== 0, meta: (bits & 2) !== 0, ctrl: (bits & 4) !== 0 };
}

/**
 * A key reported by code point, as the kitty keyboard protocol (`CSI code;mods u`) and xterm's
 * modifyOtherKeys (`CSI 27;mods;code ~`) send it: Shift+Enter is then told apart from Enter.
 */
function codePointKey(code: number, param: string | undefined): Key | undefined {
  // Kitty numbers keys without a character (keypad, media, lone modifiers) in the Private Use Area.
  if (!Number.isInteger(code) || code < 0 || code > 0x10ffff || (code >= 0xe000 && code <= 0xf8ff)) return undefined;
  const mods = modifiers(param);
  const named: Record<number, string> = { 13: 'enter', 9: 'tab', 127: 'backspace', 8: 'backspace', 27: 'escape', 32: 'space' };
  if (named[code]) {
    // A plain or shifted space is text; with Ctrl/Alt it is a key like any other.
    if (code === 32 && !mods.ctrl && !mods.meta) return { type: 'text', text: ' ' };
    return key(named[code], mods);
  }
  if (code < 32) return controlKey(String.fromCharCode(code));
  const char = String.fromCodePoint(code);
  // Shift alone only changes which character was typed.
  if (!mods.ctrl && !mods.meta) return { type: 'text', text: mods.shift ? char.toUpperCase() : char };
  const lower = char.toLowerCase();
  return key(lower, { ...mods, shift: mods.shift || lower !== char });
}

/** The key for one control character (below 0x20, or DEL). */
function controlKey(char: string): Key {
  const code = char.charCodeAt(0);
  if (char === '\r' || char === '\n') return key('enter');
  if (char === '\t') return key('tab');
  if (char === '\x7f' || char === '\b') return key('backspace');
  if (code === 0) return key('space', { ctrl: true });
  if (code >= 1 && code <= 26) return key(String.fromCharCode(code + 96), { ctrl: true });
  return key('unknown', { ctrl: true });
}

const isControl = (char: string) => char < ' ' || char === '\x7f';

type Parsed = { keys: Key[]; next: number; pasteStart?: boolean } | 'pending';

/** Parses the escape sequence at `start` (where `input[start]` is ESC). */
function parseEscape(input: string, start: number): Parsed {
  const next = input[start + 1];
  if (next === undefined) return 'pending';
  if (next === '[') {
    let index = start + 2;
    // Linux console function keys look like ESC [ [ A.
    if (input[index] === '[') index++;
    for (; index < input.length; index++) {
      const code = input.charCodeAt(index);
      if (code >= 0x40 && code <= 0x7e) break;
      if (code < 0x20 || code > 0x3f) return { keys: [key('escape')], next: start + 1 };
    }
    if (index >= input.length) return 'pending';
    const sequence = input.slice(start, index + 1);
    if (sequence === PASTE_START) return { keys: [], next: index + 1, pasteStart: true };
    const params = input.slice(start + 2, index).replace(/^\[/, '').split(';');
    const final = input[index];
    let parsed: Key = key('unknown');
    if (final === '~' && params[0] === '27' && params.length === 3) {
      parsed = codePointKey(Number(params[2]), params[1]) ?? parsed;
    } else if (final === 'u' && !input.slice(start + 2, index).match(/^[<>=?]/)) {
      // Kitty: `code[:alternates];mods[:event]u`; only the base code and the modifiers matter here.
      parsed = codePointKey(Number(params[0].split(':')[0]), params[1]?.split(':')[0]) ?? parsed;
    } else if (final === '~') {
      const name = CSI_TILDE[params[0] ?? ''];
      // A stray paste-end marker (201~) is swallowed like any unknown sequence.
      if (name) parsed = key(name, modifiers(params[1]));
    } else if (final === 'Z') parsed = key('tab', { shift: true });
    else if (CSI_LETTER[final]) parsed = key(CSI_LETTER[final], modifiers(params[1]));
    return { keys: parsed.type === 'key' && parsed.name === 'unknown' ? [] : [parsed], next: index + 1 };
  }
  if (next === 'O') {
    const final = input[start + 2];
    if (final === undefined) return 'pending';
    const name = CSI_LETTER[final];
    return { keys: name ? [key(name)] : [], next: start + 3 };
  }
  if (next === ESC) return { keys: [key('escape')], next: start + 1 };
  // Alt+key: ESC followed by the key.
  const point = input.codePointAt(start + 1) ?? 0;
  const char = String.fromCodePoint(point);
  const width = char.length;
  if (isControl(char)) {
    const base = controlKey(char);
    return { keys: [base.type === 'key' ? { ...base, meta: true } : base], next: start + 1 + width };
  }
  const lower = char.toLowerCase();
  return { keys: [key(lower, { meta: true, shift: lower !== char })], next: start + 1 + width };
}

/** The longest suffix of `text` that is a proper prefix of `marker`. */
function partialMarkerSuffix(text: string, marker: string): number {
  for (let length = Math.min(marker.length - 1, text.length); length > 0; length--) {
    if (marker.startsWith(text.slice(-length))) return length;
  }
  return 0;
}

export interface KeyParser {
  push(chunk: string): Key[];
  /** True when input ends in an incomplete escape sequence (or a lone Esc) awaiting more bytes. */
  hasPending(): boolean;
  /** Gives up waiting: a lone ESC becomes the Escape key. Call after a short quiet period. */
  flush(): Key[];
}

export function createKeyParser(): KeyParser {
  let pending = '';
  let paste: string | undefined;

  const push = (chunk: string): Key[] => {
    const input = pending + chunk;
    pending = '';
    const keys: Key[] = [];
    let index = 0;
    while (index < input.length) {
      if (paste !== undefined) {
        const end = input.indexOf(PASTE_END, index);
        if (end === -1) {
          const rest = input.slice(index);
          const keep = partialMarkerSuffix(rest, PASTE_END);
          paste += rest.slice(0, rest.length - keep);
          pending = rest.slice(rest.length - keep);
          return keys;
        }
        keys.push({ type: 'paste', text: paste + input.slice(index, end) });
        paste = undefined;
        index = end + PASTE_END.length;
        continue;
      }
      const char = input[index];
      if (char === ESC) {
        const parsed = parseEscape(input, index);
        if (parsed === 'pending') {
          pending = input.slice(index);
          return keys;
        }
        keys.push(...parsed.keys);
        if (parsed.pasteStart) paste = '';
        index = parsed.next;
        continue;
      }
      if (isControl(char)) {
        keys.push(controlKey(char));
        // A terminal that sends CR LF for Enter sends one key, not two.
        index += char === '\r' && input[index + 1] === '\n' ? 2 : 1;
        continue;
      }
      let end = index;
      while (end < input.length && !isControl(input[end])) end++;
      for (const { segment } of graphemes.segment(input.slice(index, end))) keys.push({ type: 'text', text: segment });
      index = end;
    }
    return keys;
  };

  return {
    push,
    hasPending: () => paste === undefined && pending.startsWith(ESC),
    flush() {
      if (paste !== undefined || !pending) return [];
      const stale = pending;
      pending = '';
      if (stale === ESC) return [key('escape')];
      // An incomplete sequence that never finished: Escape, then whatever followed it as text.
      return [key('escape'), ...push(stale.slice(1))];
    },
  };
}

/** Parses one complete input string (tests, and anything that is not a live stream). */
export function parseKeys(input: string): Key[] {
  const parser = createKeyParser();
  return [...parser.push(input), ...parser.flush()];
}

/** A short human-readable name for a key: `a`, `enter`, `ctrl+c`, `alt+b`, `paste(…)`. */
export function describeKey(k: Key): string {
  if (k.type === 'text') return k.text;
  if (k.type === 'paste') return `paste(${JSON.stringify(k.text)})`;
  return [k.ctrl && 'ctrl', k.meta && 'alt', k.shift && 'shift', k.name].filter(Boolean).join('+');
}
