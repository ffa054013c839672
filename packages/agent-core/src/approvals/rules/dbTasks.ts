/**
 * Database tools beyond the clients (see data.ts): drop and admin tools, restores that drop what
 * they restore over, and the frameworks' "wipe the database" tasks (migrate reset, schema drop,
 * roll back everything), wherever the task runner puts them (`php bin/console`, `yarn sequelize`).
 */
import path from 'node:path';
import type { Invocation, Judgement } from '../judgement.ts';
import { hasOpt, optValue, parseOptions } from '../options.ts';
import { register } from '../programRules.ts';
import { literal, type WordValue } from '../words.ts';
import { pythonProgram } from './infra.ts';
import { judgeSql, say, SQL } from './sql.ts';

const text = (w: WordValue | undefined) => (w ? literal(w) ?? '' : '');

// ── drop and admin tools ──

register(['dropdb', 'dropuser', 'pg_dropcluster'], (inv, j) => {
  const args = inv.args.map(text);
  if (args.some((a) => /^--?(?:help|version|\?)$|^-V$/.test(a))) return;
  const what = inv.name === 'dropuser' ? 'database role' : 'database';
  say(j, 'sql.drop', what, `${inv.name} ${args.join(' ')} deletes a ${what === 'database' ? 'database' : 'role'}`);
});

/** mysqladmin's commands: `drop DB`, `shutdown`, `kill ID`. */
register(['mysqladmin'], (inv, j) => {
  const args = inv.args.map((w) => text(w).toLowerCase());
  if (args.some((a) => /^--?(?:help|version|\?)$|^-v$/.test(a))) return;
  const at = args.findIndex((a) => /^(?:drop|shutdown|kill)$/.test(a));
  if (at < 0) return;
  const shown = `mysqladmin ${args.slice(at).join(' ')}`;
  if (args[at] === 'drop') say(j, 'sql.drop', 'database', `${shown} deletes a database`);
  else say(j, 'sql.server-control', 'database server', `${shown} stops the server or other sessions`);
});

/** Restores that first drop what the dump holds: `pg_restore --clean -d DB`, `mongorestore --drop`. */
register(['pg_restore', 'mongorestore'], (inv, j) => {
  const p = parseOptions(inv.args, { short: 'cCd:f:F:h:p:U:n:t:j:L:lsaOx1ewW', long: ['clean', 'create', 'dbname=', 'file=', 'format=', 'host=', 'port=', 'username=', 'schema=', 'table=', 'jobs=', 'use-list=', 'list', 'drop', 'dryRun', 'uri=', 'db=', 'collection=', 'nsInclude=', 'nsExclude=', 'archive=', 'gzip', 'help', 'version'] });
  if (hasOpt(p, 'help', 'version', 'dryRun', 'l', 'list')) return;
  const drops = inv.name === 'mongorestore' ? hasOpt(p, 'drop') : hasOpt(p, 'c', 'clean') && optValue(p, 'd', 'dbname') !== undefined;
  if (drops) say(j, 'db.restore-drop', 'database', `${inv.name} ${inv.args.map(text).join(' ')} drops each object before restoring it`);
});

// ── frameworks ──

/** Tasks that drop, reset or wipe a database, by program: matched on ` arg arg … `. */
const WIPES: [string[], RegExp][] = [
  [['prisma'], / migrate reset | db push .*--(?:force-reset|accept-data-loss) /],
  [['rails', 'rake'], / db:(?:drop|reset|purge|schema:load|structure:load|truncate_all|migrate:reset|setup|seed:replant)(?::\w+)* /],
  [['sequelize', 'sequelize-cli'], / db:drop | db:migrate:undo:all /],
  [['drizzle-kit'], / drop | push .*--force /],
  [['atlas'], / schema clean /],
  [['console', 'symfony'], / doctrine:(?:schema|database):drop .*--(?:force|f) | doctrine:fixtures:load (?!.*--append)(?=.*(?:-n|--no-interaction) )/],
  [['sqitch'], / revert (?!.*--to)/],
  [['knex'], / migrate:rollback .*--all /],
  [['artisan'], / (?:migrate:(?:fresh|reset|refresh)|db:wipe) /],
  [['alembic'], / downgrade base /],
  [['flask'], / db downgrade base /],
  [['typeorm', 'typeorm-ts-node-commonjs', 'typeorm-ts-node-esm'], / schema:drop /],
  [['mix'], / ecto\.(?:drop|reset|rollback .*--all) /],
  [['dotnet'], / ef database drop /],
  [['supabase'], / db reset /],
  [['diesel', 'sqlx'], / database (?:drop|reset) /],
  [['goose'], / (?:reset|down-to 0) /],
  [['dbmate', 'migrate'], / drop /],
  [['migrate'], / down (?:-all|--all) /],
  [['flyway'], / clean /],
  [['liquibase'], / drop-?all /],
  [['manage.py', 'django-admin', 'django'], /^ (?:flush|reset_db|reset_schema|migrate \S+ zero) /],
];

function wipe(program: string, args: WordValue[], j: Judgement): void {
  const line = ` ${args.map((w) => text(w).toLowerCase()).join(' ')} `;
  const hit = WIPES.find(([names, re]) => names.includes(program) && re.test(line));
  if (hit) say(j, 'db.wipe', 'database', `${program}${line.match(hit[1])![0].trimEnd()} drops or wipes the database`);
}
register([...new Set(WIPES.flatMap(([names]) => names))].filter((n) => !/^(?:artisan|django|django-admin|manage\.py)$/.test(n)), (inv, j) => wipe(inv.name, inv.args, j));

register(['php'], (inv, j) => {
  const at = inv.args.findIndex((w) => /^(?:artisan|console)$/.test(path.posix.basename(text(w))));
  if (at >= 0) wipe(path.posix.basename(text(inv.args[at])), inv.args.slice(at + 1), j);
});

/** `yarn sequelize …`, `pnpm drizzle-kit …`: the package's command, run by name. */
register(['yarn', 'pnpm'], (inv, j) => {
  const program = text(inv.args[0]);
  if (program !== 'console' && WIPES.some(([names]) => names.includes(program))) wipe(program, inv.args.slice(1), j);
});

register(/^python[\d.]*$/, (inv, j) => {
  const program = pythonProgram(inv);
  if (program.module === 'django' || path.posix.basename(program.script ?? '') === 'manage.py') django(program.args, inv, j);
});
register(['django-admin', 'manage.py'], (inv, j) => django(inv.args, inv, j));

/** Django's tasks; `dbshell` runs the SQL on its stdin, and `sqlflush` prints SQL that empties every table. */
function django(args: WordValue[], inv: Invocation, j: Judgement): void {
  wipe('manage.py', args, j);
  if (text(args[0]) !== 'dbshell') return;
  const stdin = inv.fact.stdin;
  if (stdin?.upstream.some((f) => f.words.some((w) => text(w) === 'sqlflush'))) say(j, 'db.wipe', 'database', 'dbshell runs the output of sqlflush: every table emptied');
  if (stdin?.text) judgeSql(stdin.text, SQL, 'manage.py dbshell', inv, j);
}
