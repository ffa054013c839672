/**
 * Text-level normalization of a shell command before the pattern lists see it. Every step undoes a
 * way of hiding a command from a naive matcher while leaving what the shell would run unchanged.
 * Quote removal inside words (`r''m`, `"r"m`, `\r\m`) is the tokenizer's job (`shellSyntax.ts`),
 * because quotes are also what tells prose (`echo "rm -rf /"`) from a command.
 */

// CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ST`), other two-byte escapes, and the 8-bit CSI.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\x9b[0-?]*[ -/]*[@-~]/g;
// Zero-width characters render as nothing, so a human reading the command would not see them.
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff\u00ad]/g;
// `$IFS`, `${IFS}` and the `$IFS$9` trick (an empty positional parameter ends the name).
const IFS = /\$\{IFS\}|\$IFS(?:\$\d)?/g;
// `{rm,-rf,/}` at word start: bash brace expansion turns it into `rm -rf /`.
const BRACE_LIST = /(^|[\s;&|(`])\{([^{}\s'"]*,[^{}\s'"]*)\}(?=$|[\s;&|)`])/g;

export interface NormalizeOptions {
  /** Fold case too; for matchers that are case-insensitive (SQL, command names). */
  lowercase?: boolean;
}

export function normalizeCommand(command: string, options: NormalizeOptions = {}): string {
  let text = command.normalize('NFKC');
  text = text.replace(ANSI, '').replace(/\0/g, '').replace(INVISIBLE, '');
  text = text.replace(/\r\n?/g, '\n');
  // A backslash-newline is deleted by the shell before anything else, even inside a word.
  text = text.replace(/\\\n/g, '');
  text = decodeAnsiCQuotes(text);
  text = text.replace(IFS, ' ');
  text = text.replace(BRACE_LIST, (_match, lead: string, items: string) => `${lead}${items.split(',').join(' ')}`);
  // Newlines separate commands and end heredoc bodies, so only horizontal space is collapsed.
  text = text.replace(/[ \t\f\v]+/g, ' ').replace(/ *\n */g, '\n').trim();
  return options.lowercase ? text.toLowerCase() : text;
}

/** `$'\x72m'` → `'rm'`: bash's ANSI-C quoting decoded into an ordinary single-quoted word. */
export function decodeAnsiCQuotes(text: string): string {
  return text.replace(/\$'((?:[^'\\]|\\.)*)'/gs, (_match, body: string) => {
    const decoded = body.replace(
      /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
      (_escape, code: string) => decodeEscape(code),
    );
    return `'${decoded.replace(/'/g, `'\\''`)}'`;
  });
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  '\\': '\\', "'": "'", '"': '"', '?': '?',
};

function decodeEscape(code: string): string {
  const head = code[0]!;
  if ((head === 'x' || head === 'u' || head === 'U') && code.length > 1) {
    const point = parseInt(code.slice(1), 16);
    return point <= 0x10ffff ? String.fromCodePoint(point) : '';
  }
  if (/[0-7]/.test(head)) return String.fromCharCode(parseInt(code, 8) & 0xff);
  if (head === 'c') return String.fromCharCode(code.charCodeAt(1) & 0x1f);
  return SIMPLE_ESCAPES[head] ?? `\\${code}`;
}
