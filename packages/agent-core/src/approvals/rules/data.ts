/**
 * Databases: SQL and shell escapes given to a database client in its own arguments or on its stdin
 * (never SQL that only appears in other programs' text), mongo and redis commands, drop tools, and
 * the frameworks' "wipe the database" tasks. SQL is judged by effect after comments are stripped and
 * string literals blanked: DROP, TRUNCATE, DELETE/UPDATE of every row, ALTER … DROP.
 */
import path from 'node:path';
import type { Invocation, Judgement } from '../judgement.ts';
import { hasOpt, optValues, parseOptions, type OptionSpec } from '../options.ts';
import { register } from '../programRules.ts';
import { display, lit, literal, type WordValue } from '../words.ts';
import { pythonProgram } from './infra.ts';

const text = (w: WordValue | undefined) => (w ? literal(w) ?? '' : '');
const known = (values: string[]) => values.filter((v) => v !== '\u0000');

// ── reading SQL ──

/**
 * How a client's text reads: `backslash` escapes in quotes (MySQL, JavaScript), `hash` comments
 * (MySQL), JavaScript's comments; `meta`: a client command starts at `src[i]` and takes the rest of
 * the line (psql `\…`, sqlite `.…`, sqlcmd `!!`); `commands`: what those do, `[pattern, effect]`
 * with the first capture the shell command or the file.
 */
interface Dialect {
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

function scan(src: string, d: Dialect): Scanned {
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

const say = (j: Judgement, rule: string, target: string, why: string) => j.add('dangerous', rule, target, why);
const snippet = (t: string) => (t.length > 80 ? `${t.slice(0, 77)}…` : t);
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

function statement(s: string, sc: Scanned, how: string, inv: Invocation, j: Judgement, depth: number): void {
  const quoted = (k: string) => sc.strings[+k] ?? '';
  if (/^(?:grant|revoke)\b/.test(s)) {
    if (/^grant\s+all\b.*\bto\s+public\b/.test(s)) say(j, 'sql.grant-public', 'database role', `${how}: ${shown(s, sc.strings)} gives everyone every privilege`);
    return;
  }
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

function judgeSql(src: string, dialect: Dialect, how: string, inv: Invocation, j: Judgement, depth = 0): Scanned {
  const sc = scan(src, dialect);
  if (depth > 4) return sc;
  for (const body of sc.bodies) judgeSql(body, dialect, how, inv, j, depth + 1);
  for (const s of sc.code.toLowerCase().replace(/\s+/g, ' ').split(';')) if (s.trim()) statement(s.trim(), sc, how, inv, j, depth);
  return sc;
}

// ── clients ──

const SQL: Dialect = {};
const PSQL: Dialect = {
  meta: (src, i) => src[i] === '\\',
  commands: [[/^\\!\s*(.*)$/s, 'code'], [/^\\(?:o|out|g|w|write)\s+\|\s*(.*)$/, 'code'], [/^\\(?:o|out|w|write)\s+(\S+)/, 'write'], [/^\\gexec\b/, 'dynamic'], [/^\\copy\b.*\bprogram\s+'([^']*)'/i, 'code']],
};
const MYSQL_SQL: Dialect = {
  backslash: true,
  hash: true,
  meta: (src, i, start) => src[i] === '\\' || (start && /^(?:system|pager|tee)\b/i.test(src.slice(i, i + 7))),
  commands: [[/^(?:\\!|system)\s*(.*)$/i, 'code'], [/^(?:\\P|pager)\s+(.*)$/i, 'code'], [/^(?:\\T|tee)\s+(\S+)/i, 'write']],
};
const SQLITE_SQL: Dialect = {
  meta: (src, i, start) => start && src[i] === '.',
  commands: [[/^\.(?:system|shell|sh)\s+(.*)$/, 'code'], [/^\.(?:output|once|read)\s+['"]?\|\s*(.*?)['"]?$/, 'code'], [/^\.import\s+['"]\|\s*([^'"]*)['"]/, 'code'], [/^\.(?:output|once|save|backup)\s+['"]?([^-'"|\s][^'"\s]*)/, 'write']],
};
const TSQL: Dialect = { meta: (src, i, start) => start && /^(?::?!!|:r\b)/i.test(src.slice(i, i + 3)), commands: [[/^:?!!\s*(.*)$/, 'code']] };

/**
 * A client: options whose value is SQL, options that read a file instead of stdin, SQL as operands
 * after the database (sqlite3), options whose value is a shell command (`mysql --pager`), options
 * naming a file it writes, and options that turn its shell escapes off (`sqlite3 -safe`).
 */
interface Client {
  spec: OptionSpec;
  sql: string[];
  files: string[];
  dialect: Dialect;
  operandSql?: boolean;
  code?: string[];
  writes?: string[];
  safe?: string[];
}

const MYSQL: Client = {
  spec: { short: 'e:h:u:P:S:D:BNtvfAbCcEGHiknoqrsUwXxzV', long: ['execute=', 'host=', 'user=', 'port=', 'socket=', 'database=', 'password', 'defaults-file=', 'defaults-extra-file=', 'login-path=', 'init-command=', 'pager=', 'tee=', 'protocol=', 'default-character-set=', 'ssl-ca=', 'ssl-cert=', 'ssl-key=', 'ssl-mode=', 'connect-timeout=', 'max-allowed-packet=', 'batch', 'skip-column-names', 'table', 'verbose', 'force', 'silent', 'vertical', 'xml', 'html', 'safe-updates', 'help', 'version'] },
  sql: ['e', 'execute', 'init-command'], files: [], dialect: MYSQL_SQL, code: ['pager'], writes: ['tee'],
};
const SQLITE: Client = {
  spec: { short: 'c:s:', long: ['cmd=', 'init=', 'separator=', 'newline=', 'nullvalue=', 'vfs=', 'maxsize=', 'mmap=', 'nonce=', 'escape=', 'readonly', 'safe', 'bail', 'batch', 'echo', 'header', 'noheader', 'interactive', 'json', 'line', 'list', 'markdown', 'box', 'column', 'csv', 'html', 'quote', 'table', 'tabs', 'ascii', 'append', 'zip', 'nofollow', 'stats', 'version', 'help', 'unsigned'], singleDashLong: true },
  sql: ['cmd', 'c', 's'], files: [], dialect: SQLITE_SQL, operandSql: true, safe: ['safe'],
};
const CLIENTS: Record<string, Client> = {
  psql: {
    spec: { short: 'c:d:f:h:p:U:v:o:L:F:P:R:T:aAbeEHlnqsStxXzZ01wW', long: ['command=', 'dbname=', 'file=', 'host=', 'port=', 'username=', 'set=', 'variable=', 'output=', 'log-file=', 'field-separator=', 'pset=', 'record-separator=', 'table-attr=', 'echo-all', 'no-align', 'echo-errors', 'echo-queries', 'echo-hidden', 'html', 'list', 'no-readline', 'single-step', 'single-line', 'tuples-only', 'expanded', 'no-psqlrc', 'single-transaction', 'help', 'version', 'no-password', 'password', 'csv', 'quiet'] },
    sql: ['c', 'command'], files: ['f', 'file', 'l', 'list'], dialect: PSQL, writes: ['o', 'output', 'L', 'log-file'],
  },
  mysql: MYSQL,
  mariadb: MYSQL,
  sqlite3: SQLITE,
  sqlite: SQLITE,
  duckdb: SQLITE,
  sqlcmd: { spec: { short: 'EbeIpRrWXuxjCAgNQ:q:i:S:U:P:d:o:H:l:t:h:s:w:a:c:f:K:M:y:Y:z:Z:v:V:m:F:k' }, sql: ['Q', 'q'], files: ['i'], dialect: TSQL, writes: ['o'] },
  'clickhouse-client': {
    spec: { short: 'h:u:d:q:f:C:mntsVv', long: ['query=', 'host=', 'port=', 'user=', 'password=', 'database=', 'format=', 'config-file=', 'queries-file=', 'multiline', 'multiquery', 'time'] },
    sql: ['q', 'query'], files: ['queries-file'], dialect: { backslash: true },
  },
  cqlsh: {
    spec: { short: 'e:f:k:u:p:b:', long: ['execute=', 'file=', 'keyspace=', 'username=', 'password=', 'cqlshrc=', 'cqlversion=', 'protocol-version=', 'connect-timeout=', 'request-timeout=', 'encoding=', 'debug', 'ssl', 'no-color', 'color', 'tty', 'version', 'help', 'secure-connect-bundle='] },
    sql: ['e', 'execute'], files: ['f', 'file'], dialect: SQL,
  },
};

function client(inv: Invocation, j: Judgement, name = inv.name, args = inv.args): void {
  const c = CLIENTS[name]!;
  // `mysql -pSECRET`: the password is attached; its letters are not options.
  const words = c === MYSQL ? args.filter((w) => !/^-p./.test(text(w))) : args;
  const parsed = parseOptions(words, c.spec);
  if (hasOpt(parsed, 'help', 'version')) return;
  const texts = known(optValues(parsed, ...c.sql));
  if (c.operandSql) texts.push(...parsed.operands.slice(1).map((w) => literal(w) ?? display(w)));
  const readsFile = optValues(parsed, ...c.files).some((f) => f !== '-');
  const stdin = inv.fact.stdin?.text;
  if (!texts.length && !readsFile && stdin) texts.push(stdin);
  const safe = hasOpt(parsed, ...(c.safe ?? []));
  for (const t of texts) {
    const sc = judgeSql(t, c.dialect, name, inv, j);
    for (const m of sc.metas) if (!safe) clientCommand(m, c.dialect, name, inv, j);
  }
  for (const code of known(optValues(parsed, ...(c.code ?? [])))) j.code(code, inv);
  for (const file of known(optValues(parsed, ...(c.writes ?? [])))) j.write(lit(file), inv, `${name} writes`);
}

function clientCommand(line: string, dialect: Dialect, how: string, inv: Invocation, j: Judgement): void {
  const hit = (dialect.commands ?? []).map(([re, effect]) => [re.exec(line), effect] as const).find(([m]) => m);
  if (!hit) return;
  const [m, effect] = hit;
  if (effect === 'code') j.code(m![1]!, inv);
  else if (effect === 'write') j.write(lit(m![1]!), inv, `${how} ${line.split(/\s/)[0]} writes`);
  else say(j, 'sql.dynamic', 'database', `${how} ${line}: runs SQL made from query results`);
}

register(Object.keys(CLIENTS), (inv, j) => client(inv, j));
register(['clickhouse'], (inv, j) => text(inv.args[0]) === 'client' && client(inv, j, 'clickhouse-client', inv.args.slice(1)));

// ── mongo, redis ──

function mongo(inv: Invocation, j: Judgement): void {
  const parsed = parseOptions(inv.args, { short: 'u:p:f:h:', long: ['eval=', 'file=', 'host=', 'port=', 'username=', 'password=', 'authenticationDatabase=', 'authenticationMechanism=', 'nodb', 'quiet', 'shell', 'norc'] });
  const scripts = known(optValues(parsed, 'eval'));
  const stdin = inv.fact.stdin?.text;
  if (!scripts.length && !hasOpt(parsed, 'f', 'file') && stdin) scripts.push(stdin);
  for (const script of scripts) {
    const sc = scan(script, { backslash: true, js: true });
    const code = sc.code.toLowerCase().replace(/\s+/g, '');
    const key = (k: string) => (k.startsWith("'s") ? sc.strings[+k.slice(2, -1)] ?? '' : k).toLowerCase();
    for (const m of code.matchAll(/\.(drop\w*)\(|runcommand\(\{('s\d+'|\w+):/g)) {
      const what = m[1] ?? key(m[2]!);
      if (!/^drop/.test(what)) continue;
      say(j, 'mongo.drop', /database/.test(what) ? 'database' : /user|role/.test(what) ? 'database role' : 'database table', `${inv.name}: ${what} in ${snippet(script.trim())}`);
    }
    if (/\.(?:deletemany|remove)\((?:\{\})?[,)]|deletemany:\{filter:\{\}/.test(code)) say(j, 'mongo.delete-all', 'database table', `${inv.name}: ${snippet(script.trim())} deletes every document`);
    if (/\.(?:updatemany|update)\(\{\},/.test(code)) say(j, 'mongo.update-all', 'database table', `${inv.name}: ${snippet(script.trim())} changes every document`);
  }
}
register(['mongo', 'mongosh'], mongo);

const REDIS: OptionSpec = { short: 'h:p:s:a:u:r:i:n:d:D:xce346', long: ['user=', 'pass=', 'askpass', 'raw', 'no-raw', 'csv', 'json', 'quoted-json', 'stat', 'latency', 'rdb=', 'functions-rdb=', 'pipe', 'pipe-timeout=', 'bigkeys', 'memkeys', 'hotkeys', 'scan', 'pattern=', 'count=', 'quoted-pattern=', 'eval=', 'ldb', 'cluster', 'verbose', 'no-auth-warning', 'tls', 'sni=', 'cacert=', 'cacertdir=', 'insecure', 'cert=', 'key=', 'help', 'version'] };

function redis(inv: Invocation, j: Judgement): void {
  const parsed = parseOptions(inv.args, REDIS);
  let words = parsed.operands.map((w) => text(w).toLowerCase());
  if (hasOpt(parsed, 'cluster') && words[0] === 'call') words = words.slice(2);
  const stdin = inv.fact.stdin?.text;
  const commands = words.length ? [words] : (stdin ?? '').split('\n').map((l) => l.trim().toLowerCase().split(/\s+/));
  for (const [cmd = '', ...rest] of commands) {
    const why = `redis-cli ${[cmd, ...rest].join(' ')}`;
    if (/^flush(?:all|db)$/.test(cmd) || (/^eval/.test(cmd) && /flush(?:all|db)/.test(rest[0] ?? ''))) say(j, 'redis.flush', 'database', `${why} deletes every key`);
    if (cmd === 'config' && rest[0] === 'set' && /^(?:dir|dbfilename)$/.test(rest[1] ?? '')) say(j, 'redis.config', 'database server', `${why} makes the server write files elsewhere`);
    if (cmd === 'shutdown') say(j, 'redis.shutdown', 'database server', `${why} stops the server`);
    if (/^(?:del|unlink)$/.test(cmd) && inv.moreArgs) say(j, 'redis.delete', 'database', `${why} deletes keys listed at run time`);
  }
}
register(['redis-cli', 'valkey-cli', 'keydb-cli'], redis);

// ── drop tools ──

register(['dropdb', 'dropuser', 'pg_dropcluster', 'mysqladmin'], (inv, j) => {
  const args = inv.args.map(text);
  const drop = inv.name === 'mysqladmin' ? args.findIndex((a) => a.toLowerCase() === 'drop') : 0;
  if (drop < 0 || args.some((a) => /^--?(?:help|version|\?)$|^-V$/.test(a))) return;
  const what = inv.name === 'dropuser' ? 'database role' : 'database';
  say(j, 'sql.drop', what, `${inv.name} ${args.slice(drop).join(' ')} deletes a ${what === 'database' ? 'database' : 'role'}`);
});

// ── frameworks ──

/** Tasks that drop, reset or wipe a database, by program: matched on ` arg arg … `. */
const WIPES: [string[], RegExp][] = [
  [['prisma'], / migrate reset | db push .*--(?:force-reset|accept-data-loss) /],
  [['rails', 'rake'], / db:(?:drop|reset|purge|schema:load|structure:load|truncate_all|migrate:reset|setup|seed:replant)(?::\w+)* /],
  [['sequelize', 'sequelize-cli'], / db:drop | db:migrate:undo:all /],
  [['knex'], / migrate:rollback .*--all /],
  [['artisan'], / (?:migrate:(?:fresh|reset|refresh)|db:wipe) /],
  [['alembic'], / downgrade base /],
  [['typeorm', 'typeorm-ts-node-commonjs', 'typeorm-ts-node-esm'], / schema:drop /],
  [['mix'], / ecto\.(?:drop|reset) /],
  [['dotnet'], / ef database drop /],
  [['supabase'], / db reset /],
  [['diesel', 'sqlx'], / database (?:drop|reset) /],
  [['goose'], / (?:reset|down-to 0) /],
  [['dbmate', 'migrate'], / drop /],
  [['flyway'], / clean /],
  [['liquibase'], / drop-?all /],
  [['manage.py', 'django-admin', 'django'], /^ (?:flush|reset_db|reset_schema|migrate \S+ zero) /],
];

function wipe(program: string, args: WordValue[], j: Judgement): void {
  const line = ` ${args.map((w) => text(w).toLowerCase()).join(' ')} `;
  const hit = WIPES.find(([names, re]) => names.includes(program) && re.test(line));
  if (hit) say(j, 'db.wipe', 'database', `${program}${line.match(hit[1])![0].trimEnd()} drops or wipes the database`);
}
for (const [names] of WIPES) register(names.filter((n) => n !== 'artisan' && n !== 'django'), (inv, j) => wipe(inv.name, inv.args, j));

register(['php'], (inv, j) => {
  const at = inv.args.findIndex((w) => path.posix.basename(text(w)) === 'artisan');
  if (at >= 0) wipe('artisan', inv.args.slice(at + 1), j);
});

register(/^python[\d.]*$/, (inv, j) => {
  const program = pythonProgram(inv);
  if (program.module === 'django' || path.posix.basename(program.script ?? '') === 'manage.py') wipe('manage.py', program.args, j);
});
