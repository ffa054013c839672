/**
 * A disk that fills up while a long reply streams: a real tmpfs, so SQLite meets a real SQLITE_FULL.
 * What was stored before the disk filled stays, the user is told what is and is not saved, and the
 * rest is written once space is freed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer } from '../../../../scripts/model-server/index.ts';
import type { EventOf } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { mountSmallDisk, smallDiskUnavailable } from '../../../../scripts/testing/smallDisk.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

// ~600 KB of distinct lines, so a stored prefix can be checked exactly.
const REPLY = Array.from({ length: 6000 }, (_, i) => `line ${String(i).padStart(5, '0')} of a very long answer, streamed slowly\n`).join('');
const noMount = smallDiskUnavailable();

describe('disk full mid-stream', () => {
  it.skipIf(noMount !== null)('keeps the stored part, tells the user what is and is not saved, and saves the rest once there is room', { timeout: 90_000 }, async () => {
    const disk = mountSmallDisk(16 * 1024 * 1024);
    cleanups.push(() => disk.unmount());
    const server = await startModelServer({ turns: [{ text: REPLY, chunk_size: 2_000, chunk_delay_ms: 8 }] });
    cleanups.push(() => server.close());
    const backend = new BackendProcess({ home: disk.dir, args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'] });
    cleanups.push(() => backend.stop());
    const session = await backend.request('session.create', {});
    const sid = session.session_id;

    // About 256 KB left: the growing reply (~600 KB) fills it after a few of its periodic writes.
    const freeSpace = disk.fill(256 * 1024);
    await backend.request('prompt.submit', { session_id: sid, text: 'tell me everything' });
    const done = (await backend.waitForEvent((e) => e.session_id === sid && e.type === 'message.complete', 60_000)) as EventOf<'message.complete'>;
    const payload = done.payload!;
    const shown = backend
      .eventsOf(sid)
      .filter((e): e is EventOf<'message.delta'> => e.type === 'message.delta')
      .map((e) => e.payload!.text)
      .join('');

    expect(payload.status).toBe('error');
    // The stream was stopped: the user did not see the whole reply, and what was shown is a prefix of it.
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(REPLY.length);
    expect(REPLY.startsWith(shown)).toBe(true);
    expect(payload.error).toMatch(/^The disk is full: the reply was stopped; only the first [\d.]+ KB of the [\d.]+ KB reply shown is saved in .*state\.db; hermes keeps the rest in memory/);
    expect(payload.error).toContain(disk.dir);
    expect(payload.error).toMatch(/free some space/i);

    // What is stored is the start of what was shown, as much as the disk took (the message says how much).
    const before = await backend.request('session.history', { session_id: sid });
    const partial = before.messages.at(-1)!;
    expect(partial.role).toBe('assistant');
    expect(partial.text.length).toBeGreaterThan(0);
    expect(shown.startsWith(partial.text)).toBe(true);
    // The message gives KB to one decimal.
    const savedKb = /only the first ([\d.]+) KB/.exec(payload.error!)![1];
    expect((Buffer.byteLength(partial.text) / 1024).toFixed(1)).toBe(savedKb);

    // Space comes back: the kept text is written without the user doing anything.
    freeSpace();
    const deadline = Date.now() + 60_000;
    let stored = partial;
    while (stored.text.length < shown.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      stored = (await backend.request('session.history', { session_id: sid })).messages.at(-1)!;
    }
    expect(stored.text.startsWith(shown)).toBe(true);
    expect(stored.status).toBe('error');

    // And the session goes on.
    expect(await backend.stop()).toBe(0);
  });
});
