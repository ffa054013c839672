/**
 * JSON-RPC overhead (issue 13, deliver 5), each beside its floor measured in the same run, interleaved:
 *  (a) request round trip: the built backend (hermes-rpc, real pipes) answering `plugins.list`, one
 *      request at a time, against a raw NDJSON echo child that answers each line with a result of the
 *      same shape. One raw line client drives both, so the difference is the server's side of the wire.
 *      Timed in short blocks taken in turn (a block's mean, median and p95; the median over blocks),
 *      with the serving process's CPU time per request beside the echo's (/proc: steady under load).
 *  (b) notifications: N `event` notifications (message.delta frames, the shape the backend streams)
 *      written by the project's transport as shipped (rpc-server's `dist/transport.js`, the serving
 *      end: `createNdjsonConnection(stdin, stdout, { answerBadFrames: true })`, `sendNotification` per
 *      frame) in a child process, against a raw writer child (`stdout.write(JSON.stringify(frame))`
 *      per frame): time from the go signal until the bench has read the last frame, and the child's
 *      CPU time. This is the transport alone: no public method of the backend emits frames faster than
 *      its agent makes them (deltas are coalesced per 16 ms), so a full-backend figure would measure the
 *      agent, not the wire.
 *
 *   npm run build && node --import tsx scripts/bench/wire.ts [--quick] [--runs N]
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HERMES_RPC_BIN, PRODUCT_ROOT, isEntry, runAlone, type Bench, type Figure } from './lib/figures.ts';
import { cpuMs, interleaved, lastCpu, median, p95 } from './lib/samples.ts';
import { tempDir } from '../testing/tempDirs.ts';

const TRANSPORT_BUNDLE = path.join(PRODUCT_ROOT, 'packages/rpc-server/dist/transport.js');

/** Answers each request line with `{"plugins":[]}`, what a fresh backend's `plugins.list` answers. */
const ECHO_CHILD = `
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let nl;
  while ((nl = pending.indexOf('\\n')) >= 0) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    if (!line) continue;
    const request = JSON.parse(line);
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { plugins: [] } }) + '\\n');
  }
});
`;

/** The frame both writers send: a message.delta event as the backend's bridge sends it. */
const FRAME_PARAMS = `(seq) => ({ type: 'message.delta', session_id: '20260101-000000-abcdef', seq, payload: { text: 'a few words of a streamed reply ' } })`;

/** Waits for one line on stdin, writes N frames, reports its CPU time on stderr once they are flushed. */
const RAW_WRITER_CHILD = `
const params = ${FRAME_PARAMS};
const n = Number(process.argv[1]);
process.stdin.once('data', () => {
  const cpu = process.cpuUsage();
  for (let i = 1; i <= n; i += 1) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'event', params: params(i) }) + '\\n');
  process.stdout.write('', () => {
    const used = process.cpuUsage(cpu);
    process.stderr.write(JSON.stringify({ cpuMs: (used.user + used.system) / 1000 }) + '\\n');
    process.exit(0);
  });
});
`;

/** The same through the project's transport; the go signal is a notification on the wire. */
const TRANSPORT_WRITER_CHILD = `
const params = ${FRAME_PARAMS};
const n = Number(process.argv[1]);
const { createNdjsonConnection } = await import(process.argv[2]);
const { connection } = createNdjsonConnection(process.stdin, process.stdout, { answerBadFrames: true });
connection.onNotification('bench.go', () => {
  const cpu = process.cpuUsage();
  let last;
  for (let i = 1; i <= n; i += 1) last = connection.sendNotification('event', params(i));
  last.then(() => process.stdout.write('', () => {
    const used = process.cpuUsage(cpu);
    process.stderr.write(JSON.stringify({ cpuMs: (used.user + used.system) / 1000 }) + '\\n');
    process.exit(0);
  }));
});
connection.listen();
process.stderr.write('ready\\n');
`;

/** Reads a child's stdout as lines and hands each to whoever waits. */
class LineReader {
  private pending = '';
  private waiter: ((line: string) => void) | undefined;
  private readonly lines: string[] = [];

  constructor(child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      this.pending += chunk;
      let nl: number;
      while ((nl = this.pending.indexOf('\n')) >= 0) {
        const line = this.pending.slice(0, nl);
        this.pending = this.pending.slice(nl + 1);
        if (this.waiter) {
          const waiter = this.waiter;
          this.waiter = undefined;
          waiter(line);
        } else this.lines.push(line);
      }
    });
  }

  next(): Promise<string> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve) => (this.waiter = resolve));
  }
}

/** A child speaking NDJSON on its pipes, asked one request at a time by a raw line client. */
class RawClient {
  private readonly reader: LineReader;
  private nextId = 0;
  stderr = '';

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    this.reader = new LineReader(child);
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
  }

  /** Sends one request and waits for its answer, skipping notifications. */
  async call(method: string, params: object): Promise<unknown> {
    const id = (this.nextId += 1);
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    for (;;) {
      const frame = JSON.parse(await this.reader.next()) as { id?: number; result?: unknown; error?: { message: string } };
      if (frame.id !== id) continue;
      if (frame.error) throw new Error(`${method}: ${frame.error.message}`);
      return frame.result;
    }
  }

  /** Waits for a notification of `type` (the backend's `gateway.ready`). */
  async event(type: string): Promise<void> {
    for (;;) {
      const frame = JSON.parse(await this.reader.next()) as { params?: { type?: string } };
      if (frame.params?.type === type) return;
    }
  }

  stop(): void {
    this.child.kill();
  }
}

/** Requests each server answers before the timed blocks (see roundTripFigures). */
const WARM_UP_REQUESTS = 6000;

/** How often the bench and a server were found on the same CPU, between requests. */
interface Placement {
  same: number;
  samples: number;
}

/**
 * `count` sequential round trips; their mean, median and p95 in µs, the CPU time the serving child
 * used meanwhile (ms), and every 50th request where the bench and the server last ran (outside the timing).
 */
async function roundTrips(client: RawClient, count: number): Promise<{ mean: number; p50: number; p95: number; serverCpuMs: number; placement: Placement }> {
  const micros: number[] = [];
  const placement: Placement = { same: 0, samples: 0 };
  const cpu0 = cpuMs(client.child.pid!);
  for (let i = 0; i < count; i += 1) {
    const t0 = performance.now();
    await client.call('plugins.list', {});
    micros.push((performance.now() - t0) * 1000);
    if (i % 50 === 0) {
      const [ours, theirs] = [lastCpu('self'), lastCpu(client.child.pid!)];
      if (ours !== undefined && theirs !== undefined) {
        placement.samples += 1;
        if (ours === theirs) placement.same += 1;
      }
    }
  }
  return { mean: micros.reduce((a, b) => a + b, 0) / micros.length, p50: median(micros), p95: p95(micros), serverCpuMs: cpuMs(client.child.pid!) - cpu0, placement };
}

const sharePct = (p: Placement) => `${Math.round((100 * p.same) / Math.max(1, p.samples))} %`;

async function startBackend(): Promise<RawClient> {
  const env: NodeJS.ProcessEnv = { ...process.env, HERMES_HOME: tempDir('hermes-bench-wire-') };
  delete env.HERMES_CHECK_RESULTS;
  const client = new RawClient(spawn(process.execPath, [HERMES_RPC_BIN], { env, stdio: ['pipe', 'pipe', 'pipe'] }));
  await client.event('gateway.ready');
  const result = (await client.call('plugins.list', {})) as { plugins?: unknown[] };
  if (!Array.isArray(result.plugins)) throw new Error(`plugins.list answered ${JSON.stringify(result)}; stderr:\n${client.stderr}`);
  return client;
}

/** Spawns a writer child, signals go, and times until `frames` lines have arrived. */
async function writeFrames(kind: 'raw' | 'transport', frames: number): Promise<{ ms: number; cpuMs: number }> {
  const args = kind === 'raw' ? ['-e', RAW_WRITER_CHILD, String(frames)] : ['--input-type=module', '-e', TRANSPORT_WRITER_CHILD, String(frames), pathToFileURL(TRANSPORT_BUNDLE).href];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  const stderrLine = (want: (line: string) => boolean) =>
    new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        const line = stderr.split('\n').find(want);
        if (line !== undefined) {
          child.stderr.off('data', onData);
          resolve(line);
        }
      };
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`${kind} writer exited (${code}) early: ${stderr}`)));
    });
  if (kind === 'transport') await stderrLine((line) => line === 'ready');
  let seen = 0;
  let started = 0;
  const arrived = new Promise<number>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) seen += 1;
      if (seen === frames) resolve(performance.now() - started);
    });
  });
  const report = stderrLine((line) => line.startsWith('{'));
  started = performance.now();
  child.stdin.write(kind === 'raw' ? 'go\n' : `${JSON.stringify({ jsonrpc: '2.0', method: 'bench.go' })}\n`);
  const ms = await arrived;
  const { cpuMs } = JSON.parse(await report) as { cpuMs: number };
  return { ms, cpuMs };
}

/**
 * This process and every thread of it on one CPU (children inherit the mask), or undefined where that
 * cannot be done (no `taskset`, not Linux, one CPU only); `restore` puts back the mask it had.
 */
function pinToOneCpu(): { restore: () => void } | undefined {
  if (process.platform !== 'linux' || os.availableParallelism() < 2) return undefined;
  try {
    const before = /affinity list: (\S+)/.exec(execFileSync('taskset', ['-c', '-p', String(process.pid)], { encoding: 'utf8' }))?.[1];
    if (!before) return undefined;
    execFileSync('taskset', ['-a', '-c', '-p', before.split(/[,-]/)[0]!, String(process.pid)], { stdio: 'ignore' });
    return { restore: () => execFileSync('taskset', ['-a', '-c', '-p', before, String(process.pid)], { stdio: 'ignore' }) };
  } catch {
    return undefined;
  }
}

/**
 * Round trips of the backend against the echo, in `blocks` interleaved blocks of `perBlock` requests.
 * `where` names the CPUs they ran on in the figures' names.
 */
async function roundTripFigures(blocks: number, perBlock: number, where: string): Promise<Figure[]> {
  const backend = await startBackend();
  const echo = new RawClient(spawn(process.execPath, ['-e', ECHO_CHILD], { stdio: ['pipe', 'pipe', 'pipe'] }));
  try {
    // Warm both until V8 has optimized their request paths: over the first ~3,000 requests both still
    // compile (on one CPU the compiler's threads take turns with the request, and each side's round
    // trip is several times its steady one), so a shorter warm-up measured the JIT, not the wire.
    await roundTrips(backend, WARM_UP_REQUESTS);
    await roundTrips(echo, WARM_UP_REQUESTS);
    const p95s = { ours: [] as number[], floor: [] as number[] };
    const p50s = { ours: [] as number[], floor: [] as number[] };
    // The serving child's CPU time over all blocks: what a request costs it, whatever the machine's load
    // (a busy machine stretches the round trip of the child that does more work per request the most).
    const serverCpuMs = { ours: 0, floor: 0 };
    const placement = { ours: { same: 0, samples: 0 }, floor: { same: 0, samples: 0 } };
    const tally = (side: 'ours' | 'floor', r: Awaited<ReturnType<typeof roundTrips>>) => {
      p95s[side].push(r.p95);
      p50s[side].push(r.p50);
      serverCpuMs[side] += r.serverCpuMs;
      placement[side].same += r.placement.same;
      placement[side].samples += r.placement.samples;
      return r.mean;
    };
    const trips = await interleaved(blocks, {
      ours: async () => tally('ours', await roundTrips(backend, perBlock)),
      floor: async () => tally('floor', await roundTrips(echo, perBlock)),
    });
    const perRequestUs = (ms: number) => (ms * 1000) / (blocks * perBlock);
    // Where the kernel put each server decides an unpinned figure on a VM whose idle vCPUs halt: a
    // server on the bench's CPU answers in about its one-CPU time, one on the other CPU waits for a
    // wake-up (docs/performance.md, "Requests without the queue").
    const placed = placement.ours.samples > 0 ? `; on the bench's CPU: ours ${sharePct(placement.ours)}, echo ${sharePct(placement.floor)} of samples` : '';
    const note = `median over ${blocks} interleaved blocks of ${perBlock} sequential plugins.list${placed}`;
    const floor = (value: number) => ({ label: 'raw NDJSON echo', value });
    return [
      { name: `JSON-RPC request round trip, mean (${where})`, unit: 'µs', ours: median(trips.ours), floor: floor(median(trips.floor)), target: { ratio: 1.3 }, runs: blocks, note },
      // A block's mean takes in every time the scheduler ran something else mid-request (milliseconds on a
      // loaded machine); its median is what a typical request costs.
      { name: `JSON-RPC request round trip, median (${where})`, unit: 'µs', ours: median(p50s.ours), floor: floor(median(p50s.floor)), target: { ratio: 1.3 }, runs: blocks, note },
      { name: `JSON-RPC request round trip, p95 (${where})`, unit: 'µs', ours: median(p95s.ours), floor: floor(median(p95s.floor)), target: { ratio: 1.3 }, runs: blocks, note },
      {
        name: `JSON-RPC request: serving process CPU per request (${where})`,
        unit: 'µs',
        ours: perRequestUs(serverCpuMs.ours),
        floor: floor(perRequestUs(serverCpuMs.floor)),
        target: {},
        runs: blocks,
        note: `/proc CPU time (user + system, all threads) over the ${blocks * perBlock} timed requests of each: steadier than wall time on a busy machine`,
      },
    ];
  } finally {
    backend.stop();
    echo.stop();
  }
}

export const bench: Bench = async ({ quick, runs }) => {
  // Round trips are timed in short blocks, ours and the echo's in turn, so both see the same moods
  // of a shared machine; each figure is the median over blocks (a block's mean, median, p95).
  const blocks = runs * 10;
  const perBlock = quick ? 200 : 500;
  const frames = quick ? 20_000 : 100_000;
  const figures: Figure[] = await roundTripFigures(blocks, perBlock, 'any CPU');
  // The same with client and servers sharing one CPU. On a VM whose idle vCPUs halt at once (this
  // team's machines: KVM, cpuidle haltpoll, guest_halt_poll_ns 0) a reply that wakes a reader on the
  // other vCPU costs tens of µs, and more the longer the server worked first: unpinned, the figure
  // measures the hypervisor's wake-up as much as the server (docs/performance.md, "JSON-RPC round trip").
  const pinned = pinToOneCpu();
  if (pinned) {
    try {
      figures.push(...(await roundTripFigures(blocks, perBlock, 'one CPU, taskset')));
    } finally {
      pinned.restore();
    }
  }
  const cpu = { ours: [] as number[], floor: [] as number[] };
  const writes = await interleaved(runs, {
    ours: () => writeFrames('transport', frames).then((r) => (cpu.ours.push(r.cpuMs), r.ms)),
    floor: () => writeFrames('raw', frames).then((r) => (cpu.floor.push(r.cpuMs), r.ms)),
  });
  const note = `${frames.toLocaleString('en')} message.delta notifications, the project's transport in a child (dist/transport.js), not the whole backend`;
  figures.push(
    { name: `notifications: ${frames.toLocaleString('en')} frames written and read`, unit: 'ms', ours: median(writes.ours), floor: { label: 'raw writer', value: median(writes.floor) }, target: { ratio: 1.3 }, runs, note },
    { name: `notifications: writer CPU for ${frames.toLocaleString('en')} frames`, unit: 'ms', ours: median(cpu.ours), floor: { label: 'raw writer', value: median(cpu.floor) }, target: { ratio: 1.3 }, runs, note },
  );
  return figures;
};

if (isEntry(import.meta.url)) await runAlone(bench);
