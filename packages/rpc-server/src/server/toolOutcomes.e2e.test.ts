/**
 * How a tool call ended survives a restart: a resumed session's `tool` messages say what
 * `tool.complete` said live (blocked, interrupted, the duration, the file diff). The real backend
 * process over real pipes, a real state.db, the scripted model; the backend is stopped and a new one
 * resumes the stored session.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import type { EventOf, TranscriptMessage } from '../protocol/index.ts';
import { startApprovalBackend } from '../testing/approvalBackend.ts';
import { BackendProcess } from '../testing/backendProcess.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** The stored session's tool messages, as a new backend on the same home resumes it. */
async function resumedToolMessages(home: string, storedId: string): Promise<TranscriptMessage[]> {
  const backend = new BackendProcess({ home, args: ['--provider', 'custom', '--base-url', 'http://127.0.0.1:9', '--model', 'scripted-model'] });
  cleanups.push(() => backend.stop());
  const resumed = await backend.request('session.resume', { session_id: storedId });
  return resumed.messages.filter((m) => m.role === 'tool');
}

describe('tool outcomes after --resume', () => {
  it('a denied command stays blocked, with its duration; a file change keeps its diff', async () => {
    const home = tempDir('hermes-home-');
    const target = tempDir('hermes-target-');
    const file = path.join(target, 'notes.txt');
    const { backend, asked } = await startApprovalBackend(
      {
        home,
        turns: [
          { tool_calls: [{ id: 'w1', name: 'write_file', arguments: { path: file, content: 'kept\n' } }] },
          { tool_calls: [{ id: 't1', name: 'terminal', arguments: { command: `rm -rf ${target}` } }] },
          { text: 'done' },
        ],
        // Only the delete is refused (a write the gate asks about is allowed).
        answer: (params) => (params.tool_name === 'terminal' ? 'deny' : 'once'),
      },
      (cleanup) => cleanups.push(cleanup),
    );
    const session = await backend.request('session.create', {});
    await backend.request('prompt.submit', { session_id: session.session_id, text: 'write, then clean up' });
    await backend.waitForEvent((e) => e.type === 'message.complete');
    expect(asked.map((a) => a.tool_name)).toContain('terminal');
    expect(fs.readFileSync(file, 'utf8')).toBe('kept\n');
    const live = backend.events.filter((e) => e.type === 'tool.complete') as EventOf<'tool.complete'>[];
    expect(live.map((e) => e.payload)).toMatchObject([
      { name: 'write_file', inline_diff: expect.stringContaining('+kept') },
      { name: 'terminal', blocked: true, error: expect.stringMatching(/^BLOCKED:/) },
    ]);
    await backend.stop();

    const tools = await resumedToolMessages(home, session.stored_session_id);
    expect(tools).toMatchObject([
      { name: 'write_file', tool_call_id: 'w1', duration_s: live[0]!.payload.duration_s, inline_diff: live[0]!.payload.inline_diff },
      { name: 'terminal', tool_call_id: 't1', blocked: true, error: live[1]!.payload.error, duration_s: live[1]!.payload.duration_s },
    ]);
    expect(tools[0]).not.toHaveProperty('blocked');
    expect(tools[0]).not.toHaveProperty('error');
  });

  it('a command stopped by session.interrupt stays interrupted, with how long it ran', async () => {
    const home = tempDir('hermes-home-');
    const { backend } = await startApprovalBackend(
      { home, turns: [{ tool_calls: [{ id: 's1', name: 'terminal', arguments: { command: 'sleep 30' } }] }, { text: 'never' }], answer: () => 'deny' },
      (cleanup) => cleanups.push(cleanup),
    );
    const session = await backend.request('session.create', {});
    await backend.request('prompt.submit', { session_id: session.session_id, text: 'wait' });
    await backend.waitForEvent((e) => e.type === 'tool.start');
    expect(await backend.request('session.interrupt', { session_id: session.session_id })).toEqual({ status: 'interrupted' });
    const complete = (await backend.waitForEvent((e) => e.type === 'tool.complete')) as EventOf<'tool.complete'>;
    expect(complete.payload).toMatchObject({ interrupted: true });
    await backend.waitForEvent((e) => e.type === 'message.complete');
    await backend.stop();

    const tools = await resumedToolMessages(home, session.stored_session_id);
    expect(tools).toEqual([
      expect.objectContaining({ name: 'terminal', tool_call_id: 's1', status: 'interrupted', duration_s: complete.payload.duration_s }),
    ]);
    expect(tools[0]).not.toHaveProperty('blocked');
  });
});
