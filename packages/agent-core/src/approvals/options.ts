/**
 * Command-line options as the programs themselves parse them (getopt): clustered short options
 * (`-rf`), attached values (`-xVALUE`, `--opt=VALUE`), values in the next word, `--` ending options,
 * and GNU long-option abbreviations (`--r` is `--recursive`, `--forc` is `--force`). An abbreviation
 * that could be several options counts as each of them: the program would refuse it, so reading it
 * as the dangerous one costs nothing.
 */
import { literal, type WordValue } from './words.ts';

export interface OptionSpec {
  /** getopt's short-option string: letters, each followed by `:` when it takes a value. */
  short?: string;
  /** Long option names; `name=` takes a value (attached with `=` or in the next word). */
  long?: readonly string[];
  /** Options end at the first operand (POSIX `+`): what follows is another command's. */
  posix?: boolean;
  /** Single-dash long options (`-exec`, `-delete`), as find and some Java-style tools take them. */
  singleDashLong?: boolean;
}

/** A spec whose options end at the first operand (what wrappers use: the rest is the command's). */
export const posixSpec = (short: string, long: readonly string[] = []): OptionSpec => ({ short, long, posix: true });

export interface ParsedOptions {
  /** Each option seen (short letter or long name, without dashes) with its values (`''` for flags). */
  opts: Map<string, string[]>;
  operands: WordValue[];
  /** Index in the input where the operands (after the options) begin, for POSIX-style parsing. */
  rest: number;
}

export function parseOptions(args: readonly WordValue[], spec: OptionSpec): ParsedOptions {
  const opts = new Map<string, string[]>();
  const operands: WordValue[] = [];
  const add = (name: string, value: string) => opts.set(name, [...(opts.get(name) ?? []), value]);
  const shortValued = new Set([...(spec.short ?? '').matchAll(/([A-Za-z0-9?#@])(?=:)/g)].map((m) => m[1]!));
  const longs = spec.long ?? [];
  let i = 0;
  for (; i < args.length; i += 1) {
    const text = literal(args[i]!) ?? leadingLiteral(args[i]!);
    if (text === '--') {
      i += 1;
      break;
    }
    if (!text.startsWith('-') || text === '-') {
      if (spec.posix) break;
      operands.push(args[i]!);
      continue;
    }
    if (text.startsWith('--') || (spec.singleDashLong && text.length > 2)) {
      const body = text.replace(/^--?/, '');
      const eq = body.indexOf('=');
      const given = eq >= 0 ? body.slice(0, eq) : body;
      const matches = resolveLong(given, longs);
      const valued = matches.some((m) => m.endsWith('='));
      let value = eq >= 0 ? body.slice(eq + 1) : '';
      if (valued && eq < 0 && i + 1 < args.length) {
        i += 1;
        value = literal(args[i]!) ?? '\u0000';
      }
      for (const match of matches.length ? matches : [given]) add(match.replace(/=$/, ''), value);
      continue;
    }
    for (let k = 1; k < text.length; k += 1) {
      const letter = text[k]!;
      if (shortValued.has(letter)) {
        let value = text.slice(k + 1);
        if (!value && i + 1 < args.length) {
          i += 1;
          value = literal(args[i]!) ?? '\u0000';
        }
        add(letter, value);
        break;
      }
      add(letter, '');
    }
  }
  for (; i < args.length; i += 1) operands.push(args[i]!);
  return { opts, operands, rest: args.length - operands.length };
}

/** Exact match, else every name the abbreviation could stand for. */
function resolveLong(given: string, longs: readonly string[]): string[] {
  const exact = longs.find((l) => l.replace(/=$/, '') === given);
  if (exact) return [exact];
  if (!given) return [];
  return longs.filter((l) => l.startsWith(given));
}

function leadingLiteral(word: WordValue): string {
  const first = word.pieces[0];
  return first && first.kind === 'lit' ? first.text : '';
}

/** True when any of `names` (short letters or long names) was given. */
export function hasOpt(parsed: ParsedOptions, ...names: string[]): boolean {
  return names.some((n) => parsed.opts.has(n));
}

/** The last value given for any of `names`. */
export function optValue(parsed: ParsedOptions, ...names: string[]): string | undefined {
  for (const n of names) {
    const values = parsed.opts.get(n);
    if (values?.length) return values[values.length - 1];
  }
  return undefined;
}

/** Every value given for any of `names`. */
export function optValues(parsed: ParsedOptions, ...names: string[]): string[] {
  return names.flatMap((n) => parsed.opts.get(n) ?? []);
}
