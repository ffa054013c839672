/**
 * Session search at a million messages, through the product: the backend (PRODUCT_ROOT's hermes-rpc
 * under plain node) answers `session.search` and the picker's `session.list {query}` over its real pipes
 * against a HERMES_HOME holding the corpus database (lib/corpusDatabase.ts, built once and cached).
 * Per query kind: p95 (and p50, max) of the requests, beside the floor, a bare query on the same file in
 * the same run (`SELECT rowid FROM <index> WHERE <index> MATCH ? LIMIT 20`; a bare LIKE for two CJK
 * characters, which no index serves), interleaved request by request.
 *
 *   node --import tsx scripts/bench/search.ts [--quick] [--runs N] [--messages 1000000]
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { BENCH_CACHE, isEntry, runAlone, type Bench, type Figure } from './lib/figures.ts';
import { corpusHome, corpusPath } from './lib/corpusDatabase.ts';
import { VOCAB } from './lib/messageCorpus.ts';
import { startBackend, type RpcBackend } from './lib/rpcClient.ts';
import { cpuMs, interleaved, median, p95 } from './lib/samples.ts';

const FULL = 1_000_000;
const QUICK_FALLBACK = 100_000;
/** Requests per query kind per run: p95 needs more samples than a median. */
const SAMPLES_PER_RUN = 20;
const TARGET_MS = 20;

interface QueryKind {
  name: string;
  /** What the product is asked. */
  method: 'session.search' | 'session.list';
  queries: string[];
  /** The bare query on the same file, per query, as [sql, parameter]. */
  floor: (query: string) => [string, string];
  /** What the floor is, when it is not a bare FTS5 query. */
  floorLabel?: string;
}

const bareFts = (index: string, match: string): [string, string] => [`SELECT rowid FROM ${index} WHERE ${index} MATCH ? LIMIT 20`, match];
const quoted = (text: string) => `"${text}"`;

const KINDS: QueryKind[] = [
  { name: 'common word', method: 'session.search', queries: ['the', 'error', 'file test'], floor: (q) => bareFts('messages_fts', q.split(' ').map(quoted).join(' ')) },
  { name: 'prefix', method: 'session.search', queries: ['w1*', 'wa*', 'w1a*', 'func*'], floor: (q) => bareFts('messages_fts', `${quoted(q.slice(0, -1))}*`) },
  { name: 'dotted', method: 'session.search', queries: ['node.js', 'v1.2.3', 'src/index.ts'], floor: (q) => bareFts('messages_fts', quoted(q)) },
  { name: 'rare word', method: 'session.search', queries: ['zanzibar', VOCAB[4000]!, VOCAB[4999]!], floor: (q) => bareFts('messages_fts', quoted(q)) },
  { name: 'CJK 3+ chars', method: 'session.search', queries: ['数据库', '検索します', '데이터베이스'], floor: (q) => bareFts('messages_trigram', quoted(q)) },
  {
    name: 'CJK 2 chars',
    method: 'session.search',
    queries: ['迁移', '설정'],
    floor: (q) => ['SELECT id FROM messages WHERE content LIKE ? LIMIT 20', `%${q}%`],
    floorLabel: 'bare LIKE scan, p95',
  },
  {
    // No index serves text this short: hermes scans the newest messages within a time budget
    // (agent-core's substringScan.ts), so the floor is a bare LIKE over the newest 10,000.
    name: 'under 3 characters, rare or absent',
    method: 'session.search',
    queries: ['鲸鱼', '😀', 'zz*'],
    floor: (q) => ['SELECT id FROM messages WHERE id > (SELECT max(id) FROM messages) - 10000 AND content LIKE ? ORDER BY id DESC LIMIT 20', `%${q.replace(/\*$/, '')}%`],
    floorLabel: 'bare LIKE over the newest 10,000, p95',
  },
  { name: 'picker title filter', method: 'session.list', queries: ['数据库', 'release', 'zanzibar'], floor: (q) => bareFts(/^[\x20-\x7e]*$/.test(q) ? 'messages_fts' : 'messages_trigram', quoted(q)) },
];

async function timedMs(run: () => unknown): Promise<number> {
  const t0 = performance.now();
  await run();
  return performance.now() - t0;
}

function messagesArg(argv: string[]): number | undefined {
  const at = argv.indexOf('--messages');
  return at >= 0 ? Number(argv[at + 1]) : undefined;
}

export const bench: Bench = async (options) => {
  const { home, file, messages, fallback } = await pickCorpus(options.quick);
  const backend: RpcBackend = await startBackend({ HERMES_HOME: home });
  const bare = new Database(file, { readonly: true, fileMustExist: true });
  const figures: Figure[] = [];
  try {
    const ask = (kind: QueryKind, query: string) => backend.request(kind.method, kind.method === 'session.list' ? { query, limit: 50 } : { query, limit: 20 });
    // Warm: the first request of each query reads its pages into the OS cache; a running backend is warm.
    for (const kind of KINDS) for (const query of kind.queries) await ask(kind, query);
    for (const kind of KINDS) {
      const statements = kind.queries.map((q) => {
        const [sql, param] = kind.floor(q);
        return { statement: bare.prepare(sql), param };
      });
      let i = 0;
      let j = 0;
      const cpuBefore = cpuMs(backend.pid);
      const samples = await interleaved(options.runs * SAMPLES_PER_RUN, {
        ours: () => timedMs(() => ask(kind, kind.queries[i++ % kind.queries.length]!)),
        floor: () => timedMs(() => {
          const { statement, param } = statements[j++ % statements.length]!;
          return statement.all(param);
        }),
      });
      const cpuPerRequest = (cpuMs(backend.pid) - cpuBefore) / samples.ours.length;
      const hits = (await ask(kind, kind.queries[0]!)) as { hits?: unknown[]; sessions?: unknown[] };
      figures.push({
        name: `search ${(messages / 1e6).toLocaleString('en')} M messages: ${kind.name} (${kind.method}), p95`,
        unit: 'ms',
        ours: p95(samples.ours),
        floor: { label: kind.floorLabel ?? 'bare FTS5 LIMIT 20, p95', value: p95(samples.floor) },
        target: { max: TARGET_MS },
        runs: samples.ours.length,
        note: `p50 ${median(samples.ours).toFixed(2)} ms, max ${Math.max(...samples.ours).toFixed(1)} ms, backend CPU ${cpuPerRequest.toFixed(1)} ms/request over ${kind.queries.map((q) => `\`${q}\``).join(' ')}; ${(hits.hits ?? hits.sessions ?? []).length} results for the first${fallback ? `; --quick: 100 k messages while the 1 M database is not cached in ${BENCH_CACHE} yet` : ''}`,
      });
    }
  } finally {
    bare.close();
    await backend.stop();
  }
  return figures;
};

/** The 1 M database, or under --quick the 100 k one while 1 M is not cached yet (building it takes minutes). */
async function pickCorpus(quick: boolean): Promise<{ home: string; file: string; messages: number; fallback: boolean }> {
  const log = (line: string) => process.stderr.write(`search bench: ${line}\n`);
  const fallback = quick && !fs.existsSync((await corpusPath(FULL)).file);
  const messages = messagesArg(process.argv) ?? (fallback ? QUICK_FALLBACK : FULL);
  return { ...(await corpusHome(messages, log)), messages, fallback: fallback && messages === QUICK_FALLBACK };
}

if (isEntry(import.meta.url)) await runAlone(bench);
