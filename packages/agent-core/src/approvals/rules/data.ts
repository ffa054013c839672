/**
 * Databases: SQL and shell escapes given to a database client in its own arguments or on its stdin
 * (never SQL that only appears in other programs' text; see sql.ts), mongo and redis commands,
 * key-value stores (etcd, consul, influx), drop tools, and the frameworks' "wipe the database" tasks.
 */
import path from 'node:path';
import type { Invocation, Judgement } from '../judgement.ts';
import { hasOpt, optValues, parseOptions, type OptionSpec } from '../options.ts';
import { register } from '../programRules.ts';
import { display, lit, literal, type WordValue } from '../words.ts';
import { pythonProgram } from './infra.ts';
import { judgeSql, MYSQL_SQL, PSQL, say, scan, snippet, SQL, SQLITE_SQL, TSQL, type Dialect } from './sql.ts';

const text = (w: WordValue | undefined) => (w ? literal(w) ?? '' : '');
const known = (values: string[]) => values.filter((v) => v !== '\u0000');

// ── clients ──

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
  // The dbcli clients and usql: the same SQL, and psql's or mysql's own commands.
  pgcli: {
    spec: { short: 'h:p:U:u:Wwvd:D:lc:f:e:', long: ['host=', 'port=', 'user=', 'username=', 'dbname=', 'pgclirc=', 'dsn=', 'row-limit=', 'prompt=', 'prompt-dsn=', 'warn=', 'ssh-tunnel=', 'init-command=', 'log-file=', 'command=', 'file=', 'execute=', 'password', 'no-password', 'single-connection', 'list-dsn', 'less-chatty', 'list', 'auto-vertical-output', 'help', 'version'] },
    sql: ['c', 'command', 'e', 'execute', 'init-command'], files: ['f', 'file'], dialect: PSQL, writes: ['log-file'],
  },
  usql: {
    spec: { short: 'c:f:o:v:N:P:F:R:T:WwX1bqtxAHz0J', long: ['command=', 'file=', 'out=', 'set=', 'variable=', 'cset=', 'pset=', 'field-separator=', 'record-separator=', 'table-attr=', 'config=', 'password', 'no-password', 'no-init', 'single-transaction', 'batch', 'quiet', 'tuples-only', 'expanded', 'no-align', 'html', 'json', 'csv', 'help', 'version'] },
    sql: ['c', 'command'], files: ['f', 'file'], dialect: PSQL, writes: ['o', 'out'],
  },
  mycli: {
    spec: { short: 'h:P:u:S:p:D:d:R:l:e:Vt', long: ['host=', 'port=', 'user=', 'socket=', 'password=', 'database=', 'dsn=', 'prompt=', 'logfile=', 'execute=', 'init-command=', 'defaults-file=', 'defaults-group-suffix=', 'myclirc=', 'login-path=', 'ssl-ca=', 'ssl-cert=', 'ssl-key=', 'ssh-host=', 'ssh-user=', 'ssh-key-filename=', 'table', 'csv', 'warn', 'no-warn', 'local-infile', 'auto-vertical-output', 'help', 'version'] },
    sql: ['e', 'execute', 'init-command'], files: [], dialect: MYSQL_SQL, writes: ['l', 'logfile'],
  },
  litecli: {
    spec: { short: 'D:R:l:e:Vt', long: ['database=', 'prompt=', 'logfile=', 'execute=', 'liteclirc=', 'table', 'csv', 'warn', 'no-warn', 'auto-vertical-output', 'help', 'version'] },
    sql: ['e', 'execute'], files: [], dialect: { meta: MYSQL_SQL.meta, commands: MYSQL_SQL.commands }, writes: ['l', 'logfile'],
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

// ── key-value and time-series stores ──

const ETCDCTL: OptionSpec = { short: 'w:', long: ['endpoints=', 'cacert=', 'cert=', 'key=', 'user=', 'password=', 'dial-timeout=', 'command-timeout=', 'keepalive-time=', 'keepalive-timeout=', 'discovery-srv=', 'discovery-srv-name=', 'write-out=', 'auth-jwt-token=', 'prefix', 'from-key', 'prev-kv', 'recursive', 'dir', 'insecure-transport', 'insecure-skip-tls-verify', 'debug', 'hex'] };

/** `etcdctl del` of a prefix, a range or from a key on (`del '' --prefix` is every key); v2's `rm -r`. */
register(['etcdctl'], (inv, j) => {
  const p = parseOptions(inv.args, ETCDCTL);
  const [verb, key, end] = p.operands.map(text);
  const every = verb === 'del' && (hasOpt(p, 'prefix', 'from-key') || key === '' || end !== undefined);
  if (every || ((verb === 'rm' || verb === 'rmdir') && hasOpt(p, 'recursive', 'r'))) say(j, 'kv.delete-all', 'database', `etcdctl ${inv.args.map(text).join(' ')} deletes every key ${key ? `under '${key}'` : 'in the store'}`);
});

register(['consul'], (inv, j) => {
  const words = inv.args.map(text);
  if (words[0] === 'kv' && words[1] === 'delete' && words.some((w) => /^--?recurse(?:=true)?$/.test(w))) say(j, 'kv.delete-all', 'database', `consul ${words.join(' ')} deletes every key under a prefix`);
});

register(['influx'], (inv, j) => {
  const ops = inv.args.map(text).filter((w) => !w.startsWith('-'));
  if (ops[0] === 'delete' || (['bucket', 'org', 'v1'].includes(ops[0] ?? '') && ops.includes('delete'))) say(j, 'db.wipe', 'database', `influx ${ops.join(' ')} deletes stored data`);
});

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
  [['flask'], / db downgrade base /],
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
