/**
 * SQL as database clients read it, judged by effect: comments stripped and string literals blanked,
 * then DROP, TRUNCATE, DELETE/UPDATE of every row, ALTER … DROP, server-side programs, dynamic SQL;
 * and each client's own commands (psql `\!`, sqlite `.shell`, mysql `system`, sqlcmd `!!`).
 */
import type { Invocation, Judgement } from '../judgement.ts';

// ── reading SQL ──

/**
 * How a client's text reads: `backslash` escapes in quotes (MySQL, JavaScript), `hash` comments
 * (MySQL), JavaScript's comments; `meta`: a client command starts at `src[i]` and takes the rest of
 * the line (psql `\…`, sqlite `.…`, sqlcmd `!!`); `commands`: what those do, `[pattern, effect]`
 * with the first capture the shell command or the file.
 */
export interface Dialect {
  backslash?: boolean;
  hash?: boolean;
  js?: boolean;
  meta?: (src: string, i: number, lineStart: boolean) => boolean;
  commands?: [RegExp, 'code' | 'write' | 'dynamic'][];
}

/**
 * `code` with comments stripped and each string literal as `'sN'` (the same text, the same N);
 * dollar-quoted `bodies` (`DO $$ … $$`, function bodies), judged as SQL in turn; client commands.
 */
interface Scanned {
  code: string;
  strings: string[];
  bodies: string[];
  metas: string[];
}

export function scan(src: string, d: Dialect): Scanned {
  const out: Scanned = { code: '', strings: [], bodies: [], metas: [] };
  const lineEnd = (from: number) => (src.indexOf('\n', from) < 0 ? src.length : src.indexOf('\n', from));
  let i = 0;
  let lineStart = true;
  while (i < src.length) {
    const c = src[i]!;
    const two = src.slice(i, i + 2);
    const atLineStart = lineStart;
    lineStart = c === '\n' || (lineStart && (c === ' ' || c === '\t'));
    if (d.meta?.(src, i, atLineStart)) {
      out.metas.push(src.slice(i, lineEnd(i)).trim());
      out.code += ';';
      i = lineEnd(i);
    } else if ((two === '--' && !d.js) || (c === '#' && d.hash) || (two === '//' && d.js)) {
      out.code += ' ';
      i = lineEnd(i);
    } else if (two === '/*') {
      const end = src.indexOf('*/', i + 2) < 0 ? src.length : src.indexOf('*/', i + 2);
      const body = src.slice(i + 2, end);
      // MySQL runs the inside of `/*! … */`.
      out.code += body.startsWith('!') ? ` ${body.replace(/^!\d*/, '')} ` : ' ';
      i = end + 2;
    } else if (c === '$' && !d.js && /^\$(?:[A-Za-z_]\w*)?\$/.test(src.slice(i, i + 64))) {
      const tag = src.slice(i, src.indexOf('$', i + 1) + 1);
      const end = src.indexOf(tag, i + tag.length) < 0 ? src.length : src.indexOf(tag, i + tag.length);
      out.bodies.push(src.slice(i + tag.length, end));
      out.code += ' $body$ ';
      i = end + tag.length;
    } else if (c === "'" || c === '"' || c === '`') {
      const escapes = d.backslash || (/[eE]/.test(src[i - 1] ?? '') && !/\w/.test(src[i - 2] ?? ''));
      let k = i + 1;
      let s = '';
      for (; k < src.length; k += 1) {
        if (escapes && src[k] === '\\') s += src[(k += 1)] ?? '';
        else if (src[k] === c && src[k + 1] === c) s += src[(k += 1)];
        else if (src[k] === c) break;
        else s += src[k];
      }
      const n = out.strings.includes(s) ? out.strings.indexOf(s) : out.strings.push(s) - 1;
      out.code += ` 's${n}' `;
      i = k + 1;
    } else {
      out.code += c;
      i += 1;
    }
  }
  return out;
}

// ── judging SQL ──

export const say = (j: Judgement, rule: string, target: string, why: string) => j.add('dangerous', rule, target, why);
export const snippet = (t: string) => (t.length > 80 ? `${t.slice(0, 77)}…` : t);
/** A statement for humans: its strings back in place. */
const shown = (s: string, strings: string[]) => snippet(s.replace(/ ?'s(\d+)' ?/g, (_m, n: string) => ` '${strings[+n]}' `).trim());

function dropTarget(kind: string): string {
  if (/^(?:database|schema|keyspace|owned|catalog|namespace|tablespace)/.test(kind)) return 'database';
  if (/^(?:user|role|login|group)$/.test(kind)) return 'database role';
  if (/^(?:table|view|materialized|foreign|collection|column|partition|dictionary)/.test(kind)) return 'database table';
  return 'database object';
}

/** Words before DELETE/UPDATE that make them something else (`ON DELETE CASCADE`, `FOR UPDATE`, triggers). */
const NOT_DML = new Set(['on', 'before', 'after', 'of', 'or', 'for', 'key', 'do', 'instead', 'grant', 'revoke']);

/** The statement's own text from `at`: parenthesized parts collapsed, up to an unmatched `)`. */
function topLevel(s: string): string {
  let depth = 0;
  let out = '';
  for (const ch of s) {
    if (ch === '(') depth += 1;
    else if (ch === ')' && (depth -= 1) < 0) break;
    else if (depth === 0) out += ch;
  }
  return out;
}

/** Always-true conditions: `1=1`, `true`, `'a'='a'`, `x = x`, `1`, `… OR 1=1`, `x LIKE '%'`. */
function tautology(cond: string, strings: string[]): boolean {
  const c = cond.trim().replace(/^\((.*)\)$/, '$1').trim();
  if (/\bor\b/.test(topLevel(c))) return splitTop(c, 'or').some((p) => tautology(p, strings));
  if (/\band\b/.test(topLevel(c))) return splitTop(c, 'and').every((p) => tautology(p, strings));
  if (/^(?:true|not\s+(?:false|0)|[1-9]\d*(?:\.\d+)?)$/.test(c)) return true;
  // A key column is never null: `id IS NOT NULL` holds for every row.
  if (/^(?:\w+\.)?(?:id|uuid|pk|rowid|oid|ctid)\s+is\s+not\s+null$/.test(c)) return true;
  const eq = /^(\S+)\s*(?:=|==|>=|<=|<=>|is)\s*(\S+)$/.exec(c);
  if (eq && eq[1] === eq[2]) return true;
  const num = /^(-?[\d.]+)\s*(<>|!=|<|>)\s*(-?[\d.]+)$/.exec(c);
  if (num) return num[2] === '<' ? +num[1]! < +num[3]! : num[2] === '>' ? +num[1]! > +num[3]! : num[1] !== num[3];
  const like = /^\S+\s+like\s+'s(\d+)'$/.exec(c);
  return !!like && /^%+$/.test(strings[+like[1]!] ?? '');
}

/** `s` split on `word` where it stands outside parentheses. */
function splitTop(s: string, word: string): string[] {
  let depth = 0;
  const mask = [...s].map((ch) => (ch === '(' ? (depth += 1, '(') : ch === ')' ? (depth -= 1, ')') : depth > 0 ? '_' : ch)).join('');
  const cuts = [...mask.matchAll(new RegExp(`\\s${word}\\s`, 'g'))].map((m) => m.index);
  return [0, ...cuts].map((from, k) => s.slice(from === 0 ? 0 : from + word.length + 1, cuts[k] ?? s.length));
}

const DELETE_SHAPE = /^\s+(?!(?:where|when|cascade|restrict|set|no|on)\b)(?:top\s*\(?\s*\d+\s*\)?\s*(?:percent\s+)?)?(?:from\s+)?[^\s(;]/;
const UPDATE_SHAPE = /^\s+(?:(?:only|low_priority|ignore|top\s*\(\s*\d+\s*\))\s+)*[^\s(;]+(?:\s+(?:as\s+)?\w+)?\s+set\b/;

/** DELETE or UPDATE that touches every row: no WHERE of its own, or an always-true one. */
function everyRow(s: string, strings: string[], how: string, j: Judgement): void {
  for (const m of s.matchAll(/\b(delete|update)\b/g)) {
    const before = s.slice(0, m.index).trimEnd();
    if (NOT_DML.has(before.split(' ').pop()!) || before.endsWith(',')) continue;
    const rest = s.slice(m.index + m[0].length);
    if (!(m[1] === 'delete' ? DELETE_SHAPE : UPDATE_SHAPE).test(rest)) continue;
    const own = topLevel(rest);
    const where = /\bwhere\b(.*?)(?:\b(?:returning|order by|limit|group by|having|output)\b|$)/.exec(own);
    if (!where || tautology(where[1]!, strings)) {
      say(j, `sql.${m[1]}-all`, 'database table', `${how}: ${shown(`${m[1]}${own}`, strings)} ${m[1] === 'delete' ? 'deletes' : 'changes'} every row`);
    }
  }
}

/** Grants of every privilege on every database, of server-wide privileges, or the right to grant on. */
const GRANT_ALL = /^grant\s+(?:all\b.*\bon\s+\*\.\*|.*\bwith\s+(?:grant|admin)\s+option\b|(?:[\w\s,]*\b)?(?:super|file|shutdown|process)\b.*\bon\s+\*\.\*|(?:pg_read_server_files|pg_write_server_files|pg_execute_server_program|rds_superuser|cloudsqlsuperuser|postgres|sysadmin|accountadmin|securityadmin)\b)/;
/** Server functions that end other sessions, write server files or change replication. */
const SERVER_CALLS = /\b(?:pg_terminate_backend|pg_drop_replication_slot|pg_file_write|pg_file_unlink|lo_export|pg_promote|system\$cancel_all_queries)\s*\(/;

function statement(s: string, sc: Scanned, how: string, inv: Invocation, j: Judgement, depth: number): void {
  const quoted = (k: string) => sc.strings[+k] ?? '';
  if (/^(?:grant|revoke)\b/.test(s)) {
    if (/^grant\s+all\b.*\bto\s+public\b/.test(s)) say(j, 'sql.grant-public', 'database role', `${how}: ${shown(s, sc.strings)} gives everyone every privilege`);
    else if (GRANT_ALL.test(s)) say(j, 'sql.grant-all', 'database role', `${how}: ${shown(s, sc.strings)} gives an account control of the server`);
    return;
  }
  if (/^(?:create|alter)\s+(?:role|user)\b.*\bsuperuser\b/.test(s) && !/\bnosuperuser\b/.test(s)) say(j, 'sql.grant-all', 'database role', `${how}: ${shown(s, sc.strings)} makes a superuser`);
  if (/^(?:shutdown|kill(?:\s+(?:connection|query))?\s+\d+)\b/.test(s) || SERVER_CALLS.test(s)) say(j, 'sql.server-control', 'database server', `${how}: ${shown(s, sc.strings)} stops the server or other sessions`);
  if (/^alter\b/.test(s)) {
    if (/\bdrop\b/.test(s)) say(j, 'sql.alter-drop', 'database table', `${how}: ${shown(s, sc.strings)} drops part of a table`);
    // ClickHouse mutations: `ALTER TABLE t DELETE WHERE 1=1`.
    const mutation = /\b(delete|update)\b.*?\bwhere\b(.*)$/.exec(s);
    if (mutation && tautology(mutation[2]!, sc.strings)) say(j, `sql.${mutation[1]}-all`, 'database table', `${how}: ${shown(s, sc.strings)} touches every row`);
    return;
  }
  for (const m of s.matchAll(/\bdrop\s+(?:temporary\s+|temp\s+)?(?:if\s+exists\s+)?((?:materialized|foreign)\s+\w+|column\s+family|\w+)/g)) {
    say(j, 'sql.drop', dropTarget(m[1]!), `${how}: ${shown(s.slice(m.index), sc.strings)}`);
  }
  if (/(?:^|[\s)])truncate\s+(?:table\s+)?(?!\()[^\s;]/.test(s)) say(j, 'sql.truncate', 'database table', `${how}: ${shown(s, sc.strings)} deletes every row`);
  everyRow(s, sc.strings, how, j);
  for (const m of s.matchAll(/\b(?:copy\b.*\b(?:from|to)\s+program|xp_cmdshell)\s*(?:n\s*)?'s(\d+)'/g)) {
    say(j, 'sql.server-program', 'database server', `${how}: the database server runs \`${quoted(m[1]!)}\``);
    j.code(quoted(m[1]!), inv);
  }
  // Dynamic SQL: `EXECUTE 'DROP …'`, `sp_executesql N'…'`, `PREPARE s FROM '…'`.
  for (const m of s.matchAll(/\b(?:exec(?:ute)?|sp_executesql|prepare\s+\w+\s+from)\s*\(?\s*(?:n\s*)?'s(\d+)'/g)) judgeSql(quoted(m[1]!), SQL, how, inv, j, depth + 1);
}

export function judgeSql(src: string, dialect: Dialect, how: string, inv: Invocation, j: Judgement, depth = 0): Scanned {
  const sc = scan(src, dialect);
  if (depth > 4) return sc;
  for (const body of sc.bodies) judgeSql(body, dialect, how, inv, j, depth + 1);
  for (const s of sc.code.toLowerCase().replace(/\s+/g, ' ').split(';')) if (s.trim()) statement(s.trim(), sc, how, inv, j, depth);
  return sc;
}

// ── dialects ──

export const SQL: Dialect = {};
export const PSQL: Dialect = {
  meta: (src, i) => src[i] === '\\',
  commands: [[/^\\!\s*(.*)$/s, 'code'], [/^\\(?:o|out|g|w|write)\s+\|\s*(.*)$/, 'code'], [/^\\(?:o|out|w|write)\s+(\S+)/, 'write'], [/^\\gexec\b/, 'dynamic'], [/^\\copy\b.*\bprogram\s+'([^']*)'/i, 'code']],
};
export const MYSQL_SQL: Dialect = {
  backslash: true,
  hash: true,
  meta: (src, i, start) => src[i] === '\\' || (start && /^(?:system|pager|tee)\b/i.test(src.slice(i, i + 7))),
  commands: [[/^(?:\\!|system)\s*(.*)$/i, 'code'], [/^(?:\\P|pager)\s+(.*)$/i, 'code'], [/^(?:\\T|tee)\s+(\S+)/i, 'write']],
};
export const SQLITE_SQL: Dialect = {
  meta: (src, i, start) => start && src[i] === '.',
  commands: [[/^\.(?:system|shell|sh)\s+(.*)$/, 'code'], [/^\.(?:output|once|read)\s+['"]?\|\s*(.*?)['"]?$/, 'code'], [/^\.import\s+['"]\|\s*([^'"]*)['"]/, 'code'], [/^\.(?:output|once|save|backup)\s+['"]?([^-'"|\s][^'"\s]*)/, 'write']],
};
export const TSQL: Dialect = { meta: (src, i, start) => start && /^(?::?!!|:r\b)/i.test(src.slice(i, i + 3)), commands: [[/^:?!!\s*(.*)$/, 'code']] };
