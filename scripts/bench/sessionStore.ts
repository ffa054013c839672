/**
 * The session store at scale: builds state.db files holding N messages (mixed English, code, tool
 * output, some Chinese/Japanese/Korean, spread over sessions of ~200 messages), then measures what a
 * user waits on: appending one message (each its own transaction, as the agent loop does), updating
 * a streamed reply, full-text search (selective, broad, prefix, CJK) and the session list.
 *
 *   node --import tsx scripts/bench/sessionStore.ts [--messages 100000,1000000] [--keep]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SessionStore, type NewMessage } from '../../packages/agent-core/src/sessions/sessionStore.ts';

const { values } = parseArgs({ options: { messages: { type: 'string', default: '100000' }, keep: { type: 'boolean', default: false } } });
const sizes = values.messages.split(',').map((s) => Number(s.trim()));

let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
/** Zipf-like: low indexes far more often, like words in real text. */
const zipf = <T>(list: readonly T[]): T => list[Math.floor(list.length * random() ** 3)]!;

const COMMON = 'the a to of and in is it that for on with this be as are you can we not file function error test run use'.split(' ');
const VOCAB = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}${['ing', 'er', 'ion', 'ed', ''][i % 5]}`);
const CODE = ['const', 'return', 'import', 'async', 'await', 'src/index.ts', 'node.js', 'v1.2.3', 'npm', 'git', 'diff', 'foo-bar', 'C++', 'undefined'];
const CJK = [
  '我们需要一个数据库迁移方案', '请检查配置文件是否正确', '这个函数的性能有问题', '日本語のテキストを検索します',
  'このエラーの原因を調べてください', '한국어 데이터베이스 검색 기능', '설정 파일을 확인해 주세요',
];

function sentence(words: number): string {
  return Array.from({ length: words }, () => (random() < 0.45 ? zipf(COMMON) : random() < 0.85 ? zipf(VOCAB) : pick(CODE))).join(' ');
}

function message(i: number): NewMessage {
  const r = random();
  // A rare word planted in about 1 of 10,000 messages: the selective query.
  const rare = i % 10_007 === 0 ? ' zanzibar' : '';
  if (r < 0.08) return { role: 'user', content: `${pick(CJK)}，${pick(CJK)}${rare}` };
  if (r < 0.3) return { role: 'user', content: `${sentence(8 + Math.floor(random() * 30))}${rare}` };
  if (r < 0.45) {
    const args = JSON.stringify({ command: `grep -rn ${zipf(VOCAB)} src/`, path: `src/${zipf(VOCAB)}.ts` });
    return { role: 'assistant', content: sentence(10), toolCalls: [{ id: `c${i}`, type: 'function', function: { name: 'terminal', arguments: args } }] };
  }
  if (r < 0.65) return { role: 'tool', content: `${sentence(100 + Math.floor(random() * 300))}${rare}`, toolName: 'terminal', toolCallId: `c${i}` };
  return { role: 'assistant', content: `${sentence(30 + Math.floor(random() * 120))}${rare}` };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
function timed(runs: number, fn: (i: number) => unknown): { p50: number; p95: number } {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    fn(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

const QUERIES: Record<string, string[]> = {
  'selective word': ['zanzibar', `${VOCAB[4000]}`, `"${VOCAB[3000]} ${VOCAB[3001]}"`],
  'broad word': ['the', 'file error', 'function OR test'],
  'prefix / dotted': ['w1*', 'node.js', 'foo-bar'],
  'CJK 3+ chars': ['数据库', '検索します', '데이터베이스'],
  'CJK 2 chars (scan)': ['迁移', '설정'],
};

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const ms = (n: number) => n.toFixed(2).padStart(8);

for (const total of sizes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-store-'));
  const file = path.join(dir, 'state.db');
  const store = SessionStore.open(file);
  const perSession = 200;
  const t0 = performance.now();
  for (let start = 0; start < total; start += 20_000) {
    store.db.transaction(() => {
      for (let i = start; i < Math.min(total, start + 20_000); i += 1) {
        if (i % perSession === 0) store.createSession({ id: `s${i / perSession}`, title: `Session ${i / perSession}` });
        store.appendMessage(`s${Math.floor(i / perSession)}`, message(i));
      }
    })();
  }
  const buildS = (performance.now() - t0) / 1000;
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  const size = fs.statSync(file).size;

  store.createSession({ id: 'live' });
  const append = timed(2000, (i) => store.appendMessage('live', message(i)));
  const row = store.appendMessage('live', { role: 'assistant', content: '', status: 'streaming' });
  let streamed = '';
  const update = timed(200, () => store.updateMessage(row, { content: (streamed += `${sentence(4)} `) }));
  const rows: Array<[string, { p50: number; p95: number }, number]> = [
    ['appendMessage (own transaction)', append, 0],
    [`updateMessage (streamed row, to ${streamed.length} chars)`, update, 0],
  ];
  for (const [kind, queries] of Object.entries(QUERIES)) {
    let hits = 0;
    const t = timed(queries.length * 10, (i) => (hits += store.search(queries[i % queries.length]!).length));
    rows.push([`search: ${kind}`, t, hits / (queries.length * 10)]);
  }
  rows.push(['listSessions (50)', timed(20, () => store.listSessions()), 50]);
  rows.push(['listSessions query "数据库"', timed(5, () => store.listSessions({ query: '数据库' })), 50]);

  console.log(`\n${total.toLocaleString('en')} messages in ${Math.ceil(total / perSession)} sessions: built in ${buildS.toFixed(1)} s ` +
    `(${Math.round(total / buildS).toLocaleString('en')} msg/s), database ${mb(size)}`);
  console.log(`${'operation'.padEnd(48)}  p50 ms    p95 ms   avg hits`);
  for (const [name, t, hits] of rows) console.log(`${name.padEnd(48)}${ms(t.p50)}  ${ms(t.p95)}   ${hits ? hits.toFixed(1) : ''}`);
  store.close();
  if (!values.keep) fs.rmSync(dir, { recursive: true, force: true });
}
