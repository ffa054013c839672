import os from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProcessRegistry } from './processRegistry.ts';
import { isAlive } from './processTestUtil.ts';

const TICKER = `bash -c 'while :; do echo x; sleep 0.05; done'`;
const registries: ProcessRegistry[] = [];
function registry(bufferChars?: number) {
  const r = new ProcessRegistry(bufferChars);
  registries.push(r);
  return r;
}
afterEach(() => {
  for (const r of registries.splice(0)) r.killAll();
});

describe('ProcessRegistry', () => {
  it('starts a background process, lists it, reads its output and kills it', async () => {
    const r = registry();
    const info = await r.start({ command: TICKER, cwd: os.tmpdir(), sessionId: 'a' });
    expect(r.list('a')).toEqual([expect.objectContaining({ id: info.id, status: 'running', command: TICKER })]);
    await vi.waitFor(() => expect(r.output(info.id)!.text).toMatch(/^(x\n){3,}/));
    expect(r.kill(info.id)).toBe(true);
    expect(await r.waitForExit(info.id)).toMatchObject({ status: 'killed' });
    expect(isAlive(info.pid)).toBe(false);
    expect(r.kill(info.id)).toBe(false);
  });

  it('records the exit code of a process that ends on its own', async () => {
    const r = registry();
    const info = await r.start({ command: 'echo done; echo oops >&2; exit 4', cwd: os.tmpdir(), sessionId: 'a' });
    expect(await r.waitForExit(info.id)).toMatchObject({ status: 'exited', exitCode: 4 });
    expect(r.output(info.id)).toEqual({ text: 'done\noops\n', dropped: 0 });
  });

  it('keeps only the most recent output, saying how much was dropped', async () => {
    const r = registry(100);
    const info = await r.start({ command: 'seq 1 1000', cwd: os.tmpdir(), sessionId: 'a' });
    await r.waitForExit(info.id);
    const out = r.output(info.id)!;
    // Cut at a blank: never the rest of a word (it may be the end of a secret).
    expect(out.text.length).toBeLessThanOrEqual(100);
    expect(out.text.length).toBeGreaterThan(90);
    expect(out.text).toMatch(/^\n\d+\n/);
    expect(out.text.endsWith('999\n1000\n')).toBe(true);
    expect(out.dropped).toBe(3893 - out.text.length);
    expect(r.output(info.id, 2)!.text).toBe('999\n1000');
  });

  it('holds back a word a running process is still writing (it may be the start of a secret)', async () => {
    const r = registry();
    const info = await r.start({ command: "printf 'first line\\nKEY=sk-proj-abc'; sleep 30", cwd: os.tmpdir(), sessionId: 'a' });
    await vi.waitFor(() => expect(r.output(info.id)!.text).toBe('first line\n'));
    r.kill(info.id);
    await r.waitForExit(info.id);
    expect(r.output(info.id)!.text).toBe('first line\nKEY=sk-proj-abc');
  });

  it('kills the whole process group, children included', async () => {
    const r = registry();
    const info = await r.start({ command: 'sleep 300 & echo "child:$!"; wait', cwd: os.tmpdir(), sessionId: 'a' });
    await vi.waitFor(() => expect(r.output(info.id)!.text).toMatch(/child:\d+/));
    const child = Number(/child:(\d+)/.exec(r.output(info.id)!.text)![1]);
    expect(isAlive(child)).toBe(true);
    r.kill(info.id);
    await r.waitForExit(info.id);
    await vi.waitFor(() => expect(isAlive(child)).toBe(false));
  });

  it('killAll stops the running processes of one session and reports how many', async () => {
    const r = registry();
    const a1 = await r.start({ command: TICKER, cwd: os.tmpdir(), sessionId: 'a' });
    const a2 = await r.start({ command: 'sleep 300', cwd: os.tmpdir(), sessionId: 'a' });
    const b = await r.start({ command: 'sleep 300', cwd: os.tmpdir(), sessionId: 'b' });
    const finished = await r.start({ command: 'true', cwd: os.tmpdir(), sessionId: 'a' });
    await r.waitForExit(finished.id);
    expect(r.killAll('a')).toBe(2);
    await Promise.all([r.waitForExit(a1.id), r.waitForExit(a2.id)]);
    expect(r.list('a').map((p) => p.status).sort()).toEqual(['exited', 'killed', 'killed']);
    expect(r.get(b.id)!.status).toBe('running');
    expect(r.killAll()).toBe(1);
    expect(r.killAll()).toBe(0);
  });
});

describe('ProcessRegistry running count', () => {
  it('says which session changed when a process starts, exits or is killed, and counts the running ones', async () => {
    const r = registry();
    const changes: string[] = [];
    const stop = r.onChange((sessionId) => changes.push(`${sessionId}:${r.running(sessionId)}`));
    const ticker = await r.start({ command: TICKER, cwd: os.tmpdir(), sessionId: 'a' });
    const quick = await r.start({ command: 'exit 0', cwd: os.tmpdir(), sessionId: 'b' });
    expect(changes).toEqual(['a:1', 'b:1']);
    await r.waitForExit(quick.id);
    expect(changes).toEqual(['a:1', 'b:1', 'b:0']);
    expect(r.kill(ticker.id)).toBe(true);
    expect(changes).toEqual(['a:1', 'b:1', 'b:0', 'a:0']);
    await r.waitForExit(ticker.id);
    // Killed is already counted: its exit says nothing new.
    expect(changes).toHaveLength(4);
    stop();
    await r.start({ command: 'exit 0', cwd: os.tmpdir(), sessionId: 'a' });
    expect(changes).toHaveLength(4);
  });
});
