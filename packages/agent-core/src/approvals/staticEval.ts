/**
 * What a command prints, when it can be known without running it: `echo`, `printf`, `cat` of a
 * heredoc, and decoders (`base64 -d`, `xxd -r -p`, `rev`) of such text. Used to read code handed to a
 * shell through a pipe or a substitution (`echo 'rm -rf ~' | sh`, `$(printf '\162\155')`).
 */
import path from 'node:path';
import type { CommandFact } from './commandFacts.ts';
import { decodeAnsiC, literal } from './words.ts';

const MAX_OUTPUT = 100_000;

export function staticOutput(fact: CommandFact): string | null {
  const texts = fact.words.map(literal);
  if (texts.some((t) => t === null)) return null;
  const [rawName, ...args] = texts as string[];
  const name = (rawName ?? '').split('/').pop();
  const input = () => fact.stdin?.text ?? null;
  let out: string | null;
  switch (name) {
    case 'echo':
      out = echo(args);
      break;
    case 'printf':
      out = printf(args);
      break;
    case 'cat':
      out = args.length === 0 || (args.length === 1 && args[0] === '-') ? input() : null;
      break;
    case 'base64':
    case 'base32': {
      const text = input();
      out = text !== null && name === 'base64' && args.some((a) => /^-\w*d/.test(a) || a === '--decode') ? fromBase64(text) : null;
      break;
    }
    case 'xxd': {
      const text = input();
      out = text !== null && args.some((a) => /^-\w*r/.test(a)) ? Buffer.from(text.replace(/[^0-9a-fA-F]/g, ''), 'hex').toString('latin1') : null;
      break;
    }
    // `$(which rm)`, `$(command -v rm)`, `$(type -P rm)`: a program's path; its name is what matters.
    case 'which':
    case 'type':
    case 'whereis':
      out = args.filter((a) => !a.startsWith('-')).map((a) => `/usr/bin/${a}`).join('\n') || null;
      break;
    case 'command':
      out = args[0] === '-v' || args[0] === '-V' ? args.slice(1).map((a) => `/usr/bin/${a}`).join('\n') || null : null;
      break;
    case ':':
    case 'true':
      out = '';
      break;
    case 'tr': {
      const text = input();
      const [from, to] = args.filter((a) => !a.startsWith('-'));
      out = text !== null && from === 'A-Z' && to === 'a-z' ? text.toLowerCase() : text !== null && from === 'a-z' && to === 'A-Z' ? text.toUpperCase() : null;
      break;
    }
    case 'cut': {
      const text = input();
      const range = args.find((a) => /^-c\d*-?\d*$/.test(a)) ?? (args.includes('-c') ? `-c${args[args.indexOf('-c') + 1]}` : undefined);
      const m = range ? /^-c(\d*)-?(\d*)$/.exec(range) : null;
      out = text !== null && m ? text.split('\n').map((l) => l.slice(Math.max(0, Number(m[1] || 1) - 1), m[2] ? Number(m[2]) : undefined)).join('\n') : null;
      break;
    }
    case 'sed': {
      const text = input();
      const script = args.length === 1 ? args[0]! : args[0] === '-e' && args.length === 2 ? args[1]! : null;
      const m = script ? /^s(.)((?:(?!\1).)*)\1((?:(?!\1).)*)\1(g?)$/.exec(script) : null;
      out = text !== null && m ? text.replace(new RegExp(m[2]!.replace(/[+?{}()|]/g, '\\$&'), m[4] ? 'g' : ''), m[3]!) : null;
      break;
    }
    case 'pwd':
      out = fact.scope.cwd === null ? null : `${fact.scope.cwd}\n`;
      break;
    case 'dirname':
    case 'basename':
    case 'realpath':
    case 'readlink': {
      const operands = args.filter((a) => !a.startsWith('-'));
      if (name === 'readlink' && !args.some((a) => /^-\w*[fem]/.test(a))) return null;
      if (!operands.length) return null;
      const absolute = (p: string) => (p.startsWith('/') || fact.scope.cwd === null ? p : `${fact.scope.cwd}/${p}`);
      const one = (p: string) =>
        name === 'dirname' ? path.posix.dirname(p) : name === 'basename' ? path.posix.basename(p) : path.posix.normalize(absolute(p)).replace(/(.)\/$/, '$1');
      out = `${operands.map(one).join('\n')}\n`;
      break;
    }
    // Programs that pass their input through (as far as judging the code in it goes).
    case 'tee':
    case 'head':
    case 'tail':
    case 'dd':
      out = name === 'dd' && args.some((a) => a.startsWith('if=')) ? null : input();
      break;
    case 'rev': {
      const text = input();
      out = text === null ? null : text.split('\n').map((l) => [...l].reverse().join('')).join('\n');
      break;
    }
    default:
      out = null;
  }
  return out !== null && out.length <= MAX_OUTPUT ? out : null;
}

function echo(args: string[]): string {
  let escapes = false;
  let newline = true;
  let i = 0;
  for (; i < args.length && /^-[neE]+$/.test(args[i]!); i += 1) {
    if (args[i]!.includes('n')) newline = false;
    if (args[i]!.includes('e')) escapes = true;
    if (args[i]!.includes('E')) escapes = false;
  }
  const text = args.slice(i).join(' ');
  return (escapes ? decodeAnsiC(text) : text) + (newline ? '\n' : '');
}

/** printf's format with `%s`, `%b`, `%d`, `%c` and `%%`, reused while arguments remain, as bash does. */
function printf(args: string[]): string | null {
  let i = 0;
  if (args[0] === '-v') return null;
  if (args[0] === '--') i = 1;
  const format = args[i];
  if (format === undefined) return null;
  const values = args.slice(i + 1);
  let out = '';
  let next = 0;
  do {
    out += decodeAnsiC(format).replace(/%(%|[-+ 0#]*\d*(?:\.\d+)?([sbdicuxXo]))/g, (_m, spec: string, conv: string | undefined) => {
      if (spec === '%') return '%';
      const value = values[next++] ?? '';
      if (conv === 'b') return decodeAnsiC(value);
      if (conv === 'c') return value.slice(0, 1);
      return value;
    });
  } while (next < values.length && next > 0);
  return out;
}

function fromBase64(text: string): string | null {
  const clean = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/=_-]*$/.test(clean)) return null;
  return Buffer.from(clean, 'base64').toString('latin1');
}
