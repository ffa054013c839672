/**
 * Databases: SQL and shell escapes given to a database client in its own arguments or on its stdin
 * (never SQL that only appears in other programs' text; see sql.ts), mongo and redis commands,
 * and key-value stores (etcd, consul, influx); drop tools and framework tasks are in dbTasks.ts.
 */
import type { Invocation, Judgement } from '../judgement.ts';
import { hasOpt, optValues, parseOptions, type OptionSpec } from '../options.ts';
import { register } from '../programRules.ts';
import { display, isDynamic, lit, literal, type WordValue } from '../words.ts';
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
  /** SQL as operands from this index on (after sqlite3's database). */
  operandSql?: number;
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
  sql: ['cmd', 'c', 's'], files: [], dialect: SQLITE_SQL, operandSql: 1, safe: ['safe'],
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
  // Clients reached through a subcommand (see SUBCLIENTS), and the warehouse and graph shells.
  'cockroach sql': {
    spec: { short: 'e:f:d:u:', long: ['execute=', 'file=', 'database=', 'user=', 'url=', 'host=', 'port=', 'certs-dir=', 'format=', 'set=', 'watch=', 'insecure', 'echo-sql', 'safe-updates', 'read-only'] },
    sql: ['e', 'execute'], files: ['f', 'file'], dialect: PSQL,
  },
  snowsql: {
    spec: { short: 'a:u:d:s:r:w:h:p:q:f:o:c:D:', long: ['accountname=', 'username=', 'dbname=', 'schemaname=', 'rolename=', 'warehouse=', 'host=', 'port=', 'query=', 'filename=', 'option=', 'connection=', 'variable=', 'config=', 'authenticator=', 'private-key-path=', 'noup', 'version', 'help'] },
    sql: ['q', 'query'], files: ['f', 'filename'], dialect: { meta: (src, i, start) => start && src[i] === '!', commands: [[/^!system\s+(.*)$/i, 'code'], [/^!spool\s+(\S+)/i, 'write']] },
  },
  'bq query': {
    spec: { long: ['destination_table=', 'parameter=', 'location=', 'project_id=', 'dataset_id=', 'format=', 'max_rows=', 'maximum_bytes_billed=', 'label=', 'job_id=', 'apilog=', 'flagfile=', 'use_legacy_sql=', 'nouse_legacy_sql', 'use_legacy_sql', 'dry_run', 'nouse_cache', 'replace', 'append_table', 'batch', 'sync', 'nosync', 'help'] },
    sql: [], files: [], dialect: { backslash: true }, operandSql: 0,
  },
  trino: {
    spec: { short: 'f:', long: ['execute=', 'file=', 'server=', 'catalog=', 'schema=', 'user=', 'password', 'output-format=', 'session=', 'source=', 'client-tags=', 'client-info=', 'access-token=', 'krb5-principal=', 'truststore-path=', 'keystore-path=', 'debug', 'ignore-errors', 'progress', 'insecure', 'help', 'version'] },
    sql: ['execute'], files: ['f', 'file'], dialect: SQL,
  },
  'cypher-shell': {
    spec: { short: 'a:u:p:d:f:P:', long: ['address=', 'uri=', 'username=', 'password=', 'database=', 'file=', 'param=', 'format=', 'encryption=', 'access-mode=', 'log=', 'fail-fast', 'fail-at-end', 'non-interactive', 'debug', 'sample-rows=', 'wrap=', 'change-password', 'help', 'version'] },
    sql: [], files: ['f', 'file'], dialect: SQL, operandSql: 0,
  },
  'wrangler d1 execute': {
    spec: { short: 'c:e:y', long: ['command=', 'file=', 'config=', 'env=', 'persist-to=', 'local', 'remote', 'preview', 'json', 'yes', 'help'] },
    sql: ['command'], files: ['file'], dialect: SQL,
  },
};
CLIENTS.presto = CLIENTS.trino!;

/** Programs whose SQL client is a subcommand: `cockroach sql`, `bq query`, `wrangler d1 execute`. */
const SUBCLIENTS: Record<string, string[]> = { cockroach: ['sql'], bq: ['query'], wrangler: ['d1', 'execute'], clickhouse: ['client'] };

/** Commands whose output feeds stdin, or a process substitution, that download: SQL from the network. */
const DOWNLOADS = /^(?:\S*\/)?(?:curl|wget|fetch|aria2c|http|https|xh|nc|ncat|socat)$/;

/** The SQL a client reads from data: stdin (`-f -`, `-f /dev/stdin`, a pipe) or a `<(…)` file; network sources ask. */
function dataSql(files: WordValue[], readsFile: boolean, inv: Invocation, j: Judgement, name: string): string[] {
  const out: string[] = [];
  const stdinFile = files.some((w) => /^(?:-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/.test(literal(w) ?? ''));
  const stdin = inv.fact.stdin;
  if (stdin && (stdinFile || !readsFile)) {
    const upstream = stdin.upstream.map((f) => text(f.words[0]));
    if (upstream.some((n) => DOWNLOADS.test(n)) || /^\/dev\/(?:tcp|udp)\//.test(stdin.file ? text(stdin.file) : '')) say(j, 'sql.from-network', 'database', `${name} runs SQL read from the network (${upstream.join(' ← ')})`);
    if (stdin.text) out.push(stdin.text);
  }
  for (const w of files) {
    for (const piece of w.pieces) {
      if (piece.kind !== 'unknown' || !piece.text.startsWith('<(')) continue;
      if (piece.output) out.push(piece.output);
      else if (/^<\(\s*(?:\S*\/)?(?:curl|wget|fetch|aria2c|xh|nc|ncat)\b/.test(piece.text)) say(j, 'sql.from-network', 'database', `${name} runs SQL read from the network (${piece.text})`);
    }
  }
  return out;
}

/** The words given to each file option (`-f WORD`, `--file=WORD`), kept as words: a `<(…)` is not literal. */
function fileWords(args: WordValue[], options: string[]): WordValue[] {
  const out: WordValue[] = [];
  args.forEach((w, k) => {
    const t = display(w);
    for (const o of options) {
      const flag = o.length === 1 ? `-${o}` : `--${o}`;
      if (t === flag && args[k + 1]) out.push(args[k + 1]!);
      else if (t.startsWith(o.length === 1 ? flag : `${flag}=`) && t.length > flag.length + (o.length === 1 ? 0 : 1)) out.push({ ...w, pieces: dropPrefix(w, o.length === 1 ? flag.length : flag.length + 1) });
    }
  });
  return out;
}

function dropPrefix(w: WordValue, n: number): WordValue['pieces'] {
  const [first, ...rest] = w.pieces;
  if (!first || first.kind !== 'lit' || first.text.length < n) return w.pieces;
  return first.text.length === n ? rest : [{ kind: 'lit', text: first.text.slice(n) }, ...rest];
}

function client(inv: Invocation, j: Judgement, name = inv.name, args = inv.args): void {
  const c = CLIENTS[name]!;
  // `mysql -pSECRET`: the password is attached; its letters are not options.
  const words = c === MYSQL ? args.filter((w) => !/^-p./.test(text(w))) : args;
  const parsed = parseOptions(words, c.spec);
  if (hasOpt(parsed, 'help', 'version')) return;
  const texts = known(optValues(parsed, ...c.sql));
  if (c.operandSql !== undefined) texts.push(...parsed.operands.slice(c.operandSql).map((w) => literal(w) ?? display(w)));
  const readsFile = optValues(parsed, ...c.files).length > 0;
  if (!texts.length) texts.push(...dataSql(fileWords(words, c.files), readsFile, inv, j, name));
  if (name === 'cypher-shell') for (const t of texts) cypher(t, j);
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

register(Object.keys(CLIENTS).filter((n) => !n.includes(' ')), (inv, j) => client(inv, j));
register(Object.keys(SUBCLIENTS), (inv, j) => {
  const sub = SUBCLIENTS[inv.name]!;
  const at = inv.args.findIndex((w, k) => sub.every((s, n) => text(inv.args[k + n]) === s));
  if (at >= 0) client(inv, j, inv.name === 'clickhouse' ? 'clickhouse-client' : `${inv.name} ${sub.join(' ')}`, inv.args.slice(at + sub.length));
});

/** Cypher: `MATCH (n) DETACH DELETE n` with no WHERE deletes every node it matched. */
function cypher(src: string, j: Judgement): void {
  const sc = scan(src, { js: true });
  for (const part of sc.code.toLowerCase().split(';')) {
    if (/\b(?:detach\s+)?delete\b/.test(part) && /\bmatch\b/.test(part) && !/\bwhere\b|\{/.test(part)) say(j, 'graph.delete-all', 'database', `cypher-shell: ${snippet(src.trim())} deletes every node it matches`);
  }
}

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
    if (/^(?:del|unlink)$/.test(cmd) && (inv.moreArgs || (words.length && parsed.operands.slice(1).some(isDynamic)))) say(j, 'redis.delete', 'database', `${why} deletes keys listed at run time`);
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
