/**
 * An hour-long session, simulated: many turns (each reading a file, then answering) through the real
 * backend process against the scripted model server, with a context window small enough that the
 * prompt is compressed again and again. Reports compressions, requests, validity of every request
 * sent to the model, the stored transcript, time per turn and the backend's memory.
 *
 *   npm run build && node --import tsx scripts/bench/longSession.ts [--turns 300] [--window 16000]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { validateMessageSequence, type ChatMessage } from '../../packages/agent-core/src/index.ts';
import type { EventOf } from '../../packages/rpc-server/src/protocol/index.ts';
import { BackendProcess } from '../../packages/rpc-server/src/testing/backendProcess.ts';
import { startModelServer } from '../model-server/index.ts';
import { tempDir } from '../testing/tempDirs.ts';

const { values } = parseArgs({ options: { turns: { type: 'string', default: '300' }, window: { type: 'string', default: '16000' } } });
const turns = Number(values.turns);

// Removed when the benchmark exits, like the backend's home.
const cwd = tempDir('hermes-bench-long-');
fs.writeFileSync(path.join(cwd, 'notes.txt'), 'a line of project notes\n'.repeat(60));
const server = await startModelServer({
  loop: true,
  turns: [
    { text: 'Reading the notes.', tool_calls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
    { text: `Done. ${'Here is what I found in the notes, at some length. '.repeat(8)}` },
  ],
  on_match: [{ when_last_message_contains: 'Summarize the conversation excerpt below', turn: { text: '## User goals: explain the notes.' } }],
});
const backend = new BackendProcess({
  config: `model:\n  context_length: ${values.window}\n`,
  args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'],
});
const { session_id: sid } = await backend.request('session.create', { cwd });
const started = performance.now();
const perTurn: number[] = [];
for (let i = 1; i <= turns; i += 1) {
  const t0 = performance.now();
  const before = backend.events.filter((e) => e.type === 'message.complete').length;
  await backend.request('prompt.submit', { session_id: sid, text: `Request ${i}: ${'look at the notes again and explain. '.repeat(5)}` });
  await backend.waitForEvent(() => backend.events.filter((e) => e.type === 'message.complete').length > before, 60_000);
  const done = backend.events.filter((e) => e.type === 'message.complete').at(-1) as EventOf<'message.complete'>;
  if (done.payload!.status !== 'complete') throw new Error(`turn ${i} ended ${done.payload!.status}: ${done.payload!.error}`);
  perTurn.push(performance.now() - t0);
}
const elapsed = performance.now() - started;
const statuses = backend.events.filter((e) => e.type === 'status.update') as EventOf<'status.update'>[];
const compressed = statuses.filter((e) => e.payload!.kind === 'compacted' && e.payload!.text.startsWith('compressed:')).length;
const invalid = server.requests.filter((r) => validateMessageSequence((r.body as { messages: ChatMessage[] }).messages).length > 0).length;
const history = await backend.request('session.history', { session_id: sid });
const rss = fs.readFileSync(`/proc/${backend.child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1];
const last = (server.requests.at(-1)!.body as { messages: ChatMessage[] }).messages;
await backend.stop();
await server.close();
const sorted = [...perTurn].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(1);
process.stdout.write(
  [
    `turns: ${turns} (each: one read_file call, then an answer), context window ${values.window} tokens`,
    `model requests: ${server.requests.length}, compressions: ${compressed}, warnings: ${statuses.filter((e) => e.payload!.kind === 'warn').length}`,
    `requests with an invalid message sequence: ${invalid}`,
    `stored transcript: ${history.count} messages (${history.messages.filter((m) => m.role === 'user').length} user), last prompt: ${last.length} messages`,
    `wall time: ${(elapsed / 1000).toFixed(1)} s; per turn p50 ${pct(50)} ms, p95 ${pct(95)} ms`,
    `backend RSS at the end: ${rss ? `${Math.round(Number(rss) / 1024)} MiB` : 'unknown'}`,
  ].join('\n') + '\n',
);
