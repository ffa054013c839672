/**
 * A plugin's failure inside a turn is reported as a failure, never as an interruption: through the
 * real backend process, a real plugin, and the scripted model server. An interrupt still is one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import type { EventOf } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A HERMES_HOME with one user plugin whose context engine cannot decide and whose middleware throws. */
function homeWithBrokenPlugin(): string {
  const home = tempDir('hermes-failures-');
  const dir = path.join(home, 'plugins', 'brittle');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'plugin.yaml'), 'name: brittle\n');
  fs.writeFileSync(
    path.join(dir, 'index.js'),
    `export function register(ctx) {
  ctx.registerContextEngine({
    name: 'brittle-engine',
    shouldCompress: () => { throw new Error('token counter crashed'); },
    compress: async (input) => ({ messages: input.messages, removed: 0, beforeTokens: 0, afterTokens: 0, summary: null }),
  });
  ctx.registerMiddleware('tool_execution', () => { throw new Error('audit sink unreachable'); });
  ctx.registerCommand('brittle-report', () => { throw new Error('report store offline'); }, 'Reports');
  ctx.registerCommand('brittle-wait', () => new Promise(() => {}), 'Never answers');
}`,
  );
  fs.writeFileSync(path.join(home, 'config.yaml'), 'plugins:\n  hook_callback_timeout: 1\n');
  return home;
}

async function start(turns: Turn[]) {
  const server = await startModelServer({ turns });
  cleanups.push(() => server.close());
  const backend = new BackendProcess({ home: homeWithBrokenPlugin(), args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'] });
  cleanups.push(() => backend.stop());
  const { session_id: sid } = await backend.request('session.create', {});
  return { server, backend, sid };
}

const completeOf = async (backend: BackendProcess, sid: string, nth: number) => {
  await backend.waitForEvent(() => backend.eventsOf(sid).filter((e) => e.type === 'message.complete').length >= nth, 30_000);
  return backend.eventsOf(sid).filter((e): e is EventOf<'message.complete'> => e.type === 'message.complete')[nth - 1]!;
};

describe('a plugin failing inside a turn', () => {
  it('is shown and logged naming the plugin; the turn completes (not "interrupted") and the session goes on', async () => {
    const { server, backend, sid } = await start([
      { tool_calls: [{ id: 'r1', name: 'read_file', arguments: { path: 'missing.txt' } }] },
      { text: 'first answer' },
      { text: 'second answer' },
    ]);
    await backend.request('prompt.submit', { session_id: sid, text: 'go' });
    const first = await completeOf(backend, sid, 1);

    expect(first.payload).toMatchObject({ status: 'complete', text: 'first answer' });
    const warnings = backend
      .eventsOf(sid)
      .filter((e): e is EventOf<'status.update'> => e.type === 'status.update' && e.payload?.kind === 'warn')
      .map((e) => e.payload?.text);
    expect(warnings).toContainEqual(expect.stringMatching(/compression failed \(token counter crashed\)/));
    expect(warnings).toContainEqual(expect.stringMatching(/plugin brittle: tool_execution middleware raised Error: audit sink unreachable/));
    // The tool ran (the middleware was skipped) and was not recorded as interrupted.
    const tool = backend.eventsOf(sid).find((e): e is EventOf<'tool.complete'> => e.type === 'tool.complete')!;
    expect(tool.payload).not.toHaveProperty('interrupted');
    expect((server.requests[1]!.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'tool')!.content).toMatch(/No such file/);
    const log = backend.log();
    expect(log).toMatch(/compression by brittle-engine failed: Error: token counter crashed/);
    expect(log).toMatch(/plugin brittle: tool_execution middleware raised Error: audit sink unreachable/);

    await backend.request('prompt.submit', { session_id: sid, text: 'again' });
    expect((await completeOf(backend, sid, 2)).payload).toMatchObject({ status: 'complete', text: 'second answer' });
    const history = await backend.request('session.history', { session_id: sid });
    expect(history.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
  });

  it('a plugin command that throws is shown as a warning and logged with its stack', async () => {
    const { backend, sid } = await start([{ text: 'unused' }]);
    expect(await backend.request('slash.exec', { session_id: sid, command: '/brittle-report now' })).toEqual({
      warning: '/brittle-report (plugin brittle) failed: report store offline',
    });
    expect(backend.log()).toMatch(/\/brittle-report \(plugin brittle\) failed: Error: report store offline\n\s+at /);
  });

  it('a plugin command that never answers fails after plugins.hook_callback_timeout instead of holding slash.exec forever', async () => {
    const { backend, sid } = await start([{ text: 'unused' }]);
    expect(await backend.request('slash.exec', { session_id: sid, command: '/brittle-wait' })).toEqual({
      warning: '/brittle-wait (plugin brittle) failed: it did not answer within 1 s (plugins.hook_callback_timeout)',
    });
    expect(backend.log()).toMatch(/\/brittle-wait \(plugin brittle\) failed: Error: it did not answer within 1 s/);
  });

  it('an interrupt during the same turn is still "interrupted"', async () => {
    const { backend, sid } = await start([{ tool_calls: [{ id: 't1', name: 'terminal', arguments: { command: 'sleep 30' } }] }, { text: 'never' }]);
    await backend.request('prompt.submit', { session_id: sid, text: 'wait' });
    await backend.waitForEvent((e) => e.session_id === sid && e.type === 'tool.start');
    await backend.request('session.interrupt', { session_id: sid });
    const done = await completeOf(backend, sid, 1);

    expect(done.payload?.status).toBe('interrupted');
    const tool = backend.eventsOf(sid).find((e): e is EventOf<'tool.complete'> => e.type === 'tool.complete')!;
    expect(tool.payload).toMatchObject({ name: 'terminal', interrupted: true });
    const stored = await backend.request('session.history', { session_id: sid });
    expect(stored.messages.find((m) => m.role === 'tool')).toMatchObject({ status: 'interrupted' });
  });
});
