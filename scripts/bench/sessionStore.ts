/**
 * The session store at scale: builds state.db files holding N messages (lib/messageCorpus.ts), then
 * measures what a user waits on while writing: appending one message (each its own transaction, as the
 * agent loop does), updating a streamed reply, and the session list. Search is scripts/bench/search.ts.
 *
 *   node --import tsx scripts/bench/sessionStore.ts [--messages 100000,1000000] [--keep]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SessionStore, type NewMessage } from '../../packages/agent-core/src/sessions/sessionStore.ts';
import { MESSAGES_PER_SESSION, messageCorpus } from './lib/messageCorpus.ts';
import { median, p95 } from './lib/samples.ts';

const { values } = parseArgs({ options: { messages: { type: 'string', default: '100000' }, keep: { type: 'boolean', default: false } } });
const sizes = values.messages.split(',').map((s) => Number(s.trim()));

const corpus = messageCorpus();
const message = (i: number) => corpus.message(i) as NewMessage;
const sentence = corpus.sentence;

function timed(runs: number, fn: (i: number) => unknown): { p50: number; p95: number } {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    fn(i);
    times.push(performance.now() - t0);
  }
  return { p50: median(times), p95: p95(times) };
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const ms = (n: number) => n.toFixed(2).padStart(8);

for (const total of sizes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-store-'));
  const file = path.join(dir, 'state.db');
  const store = SessionStore.open(file);
  const perSession = MESSAGES_PER_SESSION;
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
  rows.push(['listSessions (50)', timed(20, () => store.listSessions()), 50]);

  console.log(`\n${total.toLocaleString('en')} messages in ${Math.ceil(total / perSession)} sessions: built in ${buildS.toFixed(1)} s ` +
    `(${Math.round(total / buildS).toLocaleString('en')} msg/s), database ${mb(size)}`);
  console.log(`${'operation'.padEnd(48)}  p50 ms    p95 ms   avg hits`);
  for (const [name, t, hits] of rows) console.log(`${name.padEnd(48)}${ms(t.p50)}  ${ms(t.p95)}   ${hits ? hits.toFixed(1) : ''}`);
  store.close();
  if (!values.keep) fs.rmSync(dir, { recursive: true, force: true });
}
