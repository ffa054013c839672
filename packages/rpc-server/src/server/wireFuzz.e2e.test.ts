/**
 * Wire fuzz: 12,000 hostile frames from a seeded generator, written in random chunk sizes (so frames
 * straddle reads) with valid probe requests among them, to the real backend over real pipes. Every
 * probe must be answered with its right result, and the backend must serve normally afterwards.
 * Replay a run with HERMES_FUZZ_SEED=<seed> (the seed is in the test's name and in every failure).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackendProcess } from '../testing/backendProcess.ts';
import { rawAnswers, type RawAnswer } from '../testing/wireFrames.ts';
import { HostileFrames, seededRandom } from '../testing/wireFuzz.ts';

const SEED = Number(process.env.HERMES_FUZZ_SEED ?? 20_261_130);
const HOSTILE = 12_000;
/** One probe after every this many hostile frames. */
const PROBE_EVERY = 25;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface Probe {
  id: string;
  frame: object;
  check: (answer: RawAnswer) => void;
}

function probes(sessionId: string, storedId: string) {
  let n = 0;
  return (): Probe => {
    n += 1;
    const id = `probe-${n}`;
    switch (n % 4) {
      case 0:
        return {
          id,
          frame: { jsonrpc: '2.0', id, method: 'approvals.check', params: { command: `echo ${id}` } },
          check: (a) => expect(a.result, id).toEqual({ level: 'safe', findings: [] }),
        };
      case 1:
        return {
          id,
          frame: { jsonrpc: '2.0', id, method: 'session.history', params: { session_id: sessionId } },
          check: (a) => expect(a.result, id).toEqual({ count: 0, messages: [] }),
        };
      case 2:
        return {
          id,
          frame: { jsonrpc: '2.0', id, method: 'config.get', params: { key: 'sessions.max_open' } },
          check: (a) => expect(a.result, id).toEqual({ value: 6 }),
        };
      default:
        return {
          id,
          frame: { jsonrpc: '2.0', id, method: 'session.title', params: { session_id: storedId } },
          check: (a) => expect(a.result, id).toEqual({ title: 'fuzz target' }),
        };
    }
  };
}

describe(`wire fuzz (seed ${SEED}, replay with HERMES_FUZZ_SEED)`, () => {
  it(`answers every valid probe among ${HOSTILE} hostile frames and serves on`, { timeout: 120_000 }, async () => {
    const backend = new BackendProcess({ config: 'sessions:\n  max_open: 6\n' });
    cleanups.push(() => backend.stop());
    await backend.waitForEvent((e) => e.type === 'gateway.ready');
    const target = await backend.request('session.create', { title: 'fuzz target' });
    const nextProbe = probes(target.session_id, target.stored_session_id);

    const hostile = new HostileFrames(SEED);
    const sent: Probe[] = [];
    const parts: Buffer[] = [];
    for (let i = 1; i <= HOSTILE; i += 1) {
      const line = hostile.next();
      parts.push(Buffer.isBuffer(line) ? line : Buffer.from(line, 'utf8'), Buffer.from('\n'));
      if (i % PROBE_EVERY === 0) {
        const probe = nextProbe();
        sent.push(probe);
        parts.push(Buffer.from(`${JSON.stringify(probe.frame)}\n`));
      }
    }
    // One line past the 16 MiB cap, dropped whole while the frames around it are read.
    parts.splice(parts.length / 2, 0, Buffer.from(`{"jsonrpc":"2.0","id":"h-over","method":"session.list","params":{"pad":"${'p'.repeat(16 * 1024 * 1024)}"}}\n`));
    const all = Buffer.concat(parts);

    // Random chunk sizes: lines straddle writes, and so reads.
    const cut = seededRandom(SEED ^ 0x5eed);
    for (let at = 0; at < all.length; ) {
      const size = 1 + Math.floor(cut() * (cut() < 0.9 ? 512 : 256 * 1024));
      const chunk = all.subarray(at, at + size);
      at += chunk.length;
      if (!backend.child.stdin.write(chunk)) await new Promise<void>((resolve) => backend.child.stdin.once('drain', resolve));
    }

    const answered = () => {
      const byId = new Map(rawAnswers(backend).filter((a) => typeof a.id === 'string' && a.id.startsWith('probe-')).map((a) => [a.id, a]));
      return sent.filter((p) => byId.has(p.id)).length;
    };
    await vi.waitFor(() => expect(answered(), `seed ${SEED}: probes answered`).toBe(sent.length), { timeout: 60_000, interval: 200 });
    const answers = new Map(rawAnswers(backend).map((a) => [a.id, a]));
    for (const probe of sent) probe.check(answers.get(probe.id)!);
    expect(sent.length).toBe(HOSTILE / PROBE_EVERY);

    // Malformed frames were answered as such, and the over-long line with a parse error.
    const codes = new Set(rawAnswers(backend).map((a) => a.error?.code));
    expect([...codes]).toEqual(expect.arrayContaining([-32700, -32600, -32602, -32601]));
    expect(rawAnswers(backend).some((a) => a.error?.message.includes('exceeds the 16777216-byte limit'))).toBe(true);
    // Hostile ids repeat: some arrived while their namesake was still in progress.
    expect(rawAnswers(backend).some((a) => a.error?.message.includes('is already in use'))).toBe(true);

    // Still serving: the same process, a normal request through an ordinary client.
    expect(backend.child.exitCode).toBeNull();
    expect(await backend.request('session.history', { session_id: target.session_id })).toEqual({ count: 0, messages: [] });
    expect(backend.stderr).not.toMatch(/uncaught|unhandled/i);
  });
});
