/**
 * A small POSIX-shell reader for the approval patterns: it splits a (normalized) command line into
 * simple commands — across `;`, `&&`, `||`, `|`, newlines, subshells, `$(…)`, backticks and
 * process substitution — and removes quotes the way the shell does. It never executes or expands
 * anything. Words remember whether they were quoted so the rules can tell an argument from a
 * command, which is what keeps `echo "rm -rf /"` harmless while `r''m -rf /` is caught.
 */

export interface Substitution {
  kind: '$(' | '`' | '<(' | '>(';
  /** The inner source, parsed separately into its own commands as well. */
  source: string;
}

export interface Word {
  /** The word after quote removal; substitutions are kept as written, e.g. `$(curl x)`. */
  text: string;
  quoted: boolean;
  subs: Substitution[];
}

export interface Redirect {
  /** `>`, `>>`, `>|`, `&>`, `<`, `>&`, … (without the file descriptor number). */
  op: string;
  target: string;
}

export interface SimpleCommand {
  words: Word[];
  redirects: Redirect[];
  /** Heredoc bodies and here-strings fed to this command's stdin. */
  stdinText: string[];
  /** The command whose output is piped into this one, if any. */
  pipeFrom: SimpleCommand | null;
}

/** Parses a command line into every simple command it would run, nested ones included. */
export function parseShell(source: string): SimpleCommand[] {
  const parser = new Parser(source);
  parser.parseList(null);
  return parser.out.filter((c) => c.words.length > 0 || c.redirects.length > 0);
}

const REDIRECT = /^(?:\d+|&)?(>>|>\||>&|>|<<<|<<-|<<|<>|<&|<)(?!\()/;
const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);

interface PendingHeredoc {
  command: SimpleCommand;
  delimiter: string;
}

class Parser {
  readonly out: SimpleCommand[] = [];
  private pos = 0;
  private pending: PendingHeredoc[] = [];
  /** Inside backticks a backtick ends the substitution; it cannot start a nested one. */
  private backticks = 0;

  constructor(private readonly src: string) {}

  /** Reads commands until `stop` (`)` or a backtick) or the end; returns the consumed source. */
  parseList(stop: ')' | '`' | null): string {
    if (stop === '`') this.backticks += 1;
    try {
      return this.parseCommands(stop);
    } finally {
      if (stop === '`') this.backticks -= 1;
    }
  }

  private parseCommands(stop: ')' | '`' | null): string {
    const start = this.pos;
    let current = this.newCommand(null);
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]!;
      if (c === ' ' || c === '\t') {
        this.pos += 1;
      } else if (c === stop) {
        const inner = this.src.slice(start, this.pos);
        this.pos += 1;
        return inner;
      } else if (c === '#' && current.words.length === 0) {
        while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos += 1;
      } else if (c === '\n') {
        this.pos += 1;
        this.readHeredocBodies();
        current = this.newCommand(null);
      } else if (c === '|' && this.src[this.pos + 1] !== '|') {
        this.pos += this.src[this.pos + 1] === '&' ? 2 : 1;
        current = this.newCommand(current);
      } else if (c === ';' || c === '|' || (c === '&' && this.src[this.pos + 1] !== '>')) {
        while (this.pos < this.src.length && ';|&'.includes(this.src[this.pos]!)) this.pos += 1;
        current = this.newCommand(null);
      } else if (c === '(' && current.words.length === 0) {
        this.pos += 1;
        this.parseList(')');
      } else if (c === ')') {
        this.pos += 1; // an unbalanced `)` (e.g. a `case` pattern): skip it
      } else if (!this.src.startsWith('<(', this.pos) && !this.src.startsWith('>(', this.pos) && REDIRECT.test(this.src.slice(this.pos))) {
        this.readRedirect(current);
      } else {
        const before = this.pos;
        const word = this.readWord();
        if (this.pos === before) this.pos += 1; // a stray `(` inside a command, e.g. `f()`
        else current.words.push(word);
      }
    }
    return this.src.slice(start);
  }

  private newCommand(pipeFrom: SimpleCommand | null): SimpleCommand {
    const command: SimpleCommand = { words: [], redirects: [], stdinText: [], pipeFrom };
    this.out.push(command);
    return command;
  }

  private readRedirect(command: SimpleCommand): void {
    const match = REDIRECT.exec(this.src.slice(this.pos))!;
    this.pos += match[0].length;
    const op = match[0].startsWith('&') ? `&${match[1]}` : match[1]!;
    while (this.src[this.pos] === ' ' || this.src[this.pos] === '\t') this.pos += 1;
    const target = this.pos < this.src.length && !WORD_END.has(this.src[this.pos]!) ? this.readWord() : null;
    if (!target) return;
    if (op === '<<' || op === '<<-') this.pending.push({ command, delimiter: target.text });
    else if (op === '<<<') command.stdinText.push(target.text);
    else command.redirects.push({ op, target: target.text });
  }

  private readHeredocBodies(): void {
    for (const heredoc of this.pending) {
      const lines: string[] = [];
      while (this.pos < this.src.length) {
        const end = this.src.indexOf('\n', this.pos);
        const line = this.src.slice(this.pos, end === -1 ? undefined : end);
        this.pos = end === -1 ? this.src.length : end + 1;
        if (line.trim() === heredoc.delimiter) break;
        lines.push(line);
      }
      heredoc.command.stdinText.push(lines.join('\n'));
    }
    this.pending = [];
  }

  private readWord(): Word {
    const word: Word = { text: '', quoted: false, subs: [] };
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]!;
      const next = this.src[this.pos + 1];
      if ((c === '<' || c === '>') && next === '(' && word.text === '') {
        this.readSubstitution(word, c === '<' ? '<(' : '>(', 2, ')');
      } else if (WORD_END.has(c) || (c === '`' && this.backticks > 0)) {
        break;
      } else if (c === "'") {
        const end = this.src.indexOf("'", this.pos + 1);
        word.text += this.src.slice(this.pos + 1, end === -1 ? undefined : end);
        word.quoted = true;
        this.pos = end === -1 ? this.src.length : end + 1;
      } else if (c === '"') {
        this.readDoubleQuoted(word);
      } else if (c === '\\') {
        word.text += next ?? '';
        this.pos += 2;
      } else if (c === '$' && next === '(') {
        this.readSubstitution(word, '$(', 2, ')');
      } else if (c === '`') {
        this.readSubstitution(word, '`', 1, '`');
      } else if (c === '$' && next === '{') {
        const end = this.src.indexOf('}', this.pos);
        const stop = end === -1 ? this.src.length : end + 1;
        word.text += this.src.slice(this.pos, stop);
        this.pos = stop;
      } else {
        word.text += c;
        this.pos += 1;
      }
    }
    return word;
  }

  private readDoubleQuoted(word: Word): void {
    word.quoted = true;
    this.pos += 1;
    while (this.pos < this.src.length && this.src[this.pos] !== '"') {
      const c = this.src[this.pos]!;
      const next = this.src[this.pos + 1];
      if (c === '\\' && next !== undefined && '$`"\\'.includes(next)) {
        word.text += next;
        this.pos += 2;
      } else if (c === '$' && next === '(') {
        this.readSubstitution(word, '$(', 2, ')');
      } else if (c === '`' && this.backticks === 0) {
        this.readSubstitution(word, '`', 1, '`');
      } else {
        word.text += c;
        this.pos += 1;
      }
    }
    this.pos += 1;
  }

  /** Parses the inner commands (they run too) and keeps the substitution as written in the word. */
  private readSubstitution(word: Word, kind: Substitution['kind'], open: number, stop: ')' | '`'): void {
    const start = this.pos;
    this.pos += open;
    const source = this.parseList(stop);
    word.text += this.src.slice(start, this.pos);
    word.subs.push({ kind, source });
  }
}
