/**
 * Bad files through the real backend process: config mistakes reach clients on the wire
 * (`gateway.ready` and `session.info` carry `config_problems`), and a state.db the backend cannot use
 * ends startup with one recognizable stderr line naming the file and the fix, never a stack.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SessionStore } from '@hermes/agent-core';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer } from '../../../../scripts/model-server/index.ts';
import { findStartupError, STARTUP_ERROR_PREFIX, type EventOf } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function modelArgs(): Promise<string[]> {
  const server = await startModelServer({ loop: true, turns: [{ text: 'fine' }] });
  cleanups.push(() => server.close());
  return ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'];
}

/** A backend whose $HERMES_HOME/logs is a file, so it cannot open backend.log. */
async function backendWithLogsFile(): Promise<{ home: string; backend: BackendProcess }> {
  const home = tempDir('hermes-logs-file-');
  fs.writeFileSync(path.join(home, 'logs'), 'not a folder\n');
  const backend = new BackendProcess({ home, args: await modelArgs() });
  cleanups.push(() => backend.stop());
  return { home, backend };
}

describe('bad files through the backend', () => {
  it('sends config problems with gateway.ready and session.info; no setup hint while a model answers', async () => {
    const backend = new BackendProcess({ config: 'approvels:\n  mode: off\nagent:\n  max_turns: lots\n', args: await modelArgs() });
    cleanups.push(() => backend.stop());
    const ready = (await backend.waitForEvent((e) => e.type === 'gateway.ready')) as EventOf<'gateway.ready'>;
    const file = path.join(backend.home, 'config.yaml');
    const expected = [
      { kind: 'value', text: `${file} line 4: \`agent.max_turns\` must be a whole number above 0 (found "lots")` },
      { kind: 'unknown_key', text: `${file} line 1: unknown key \`approvels\` — did you mean \`approvals\`? (hermes ignores it)` },
    ];
    expect(ready.payload!.config_problems).toEqual(expected);
    const session = await backend.request('session.create', {});
    expect(session.info.config_problems).toEqual(expected);
    expect(session.info.setup_hint).toBeUndefined();
    // The model answers all the same.
    await backend.request('prompt.submit', { session_id: session.session_id, text: 'hi' });
    const done = (await backend.waitForEvent((e) => e.type === 'message.complete')) as EventOf<'message.complete'>;
    expect(done.payload).toMatchObject({ status: 'complete', text: 'fine' });
  });

  it('logs/ that is a file: named with the fix on gateway.ready (the TUI shows no stderr), and the model answers', async () => {
    const { home, backend } = await backendWithLogsFile();
    const ready = (await backend.waitForEvent((e) => e.type === 'gateway.ready')) as EventOf<'gateway.ready'>;
    const log = path.join(home, 'logs', 'backend.log');
    expect(ready.payload!.config_problems).toEqual([
      {
        kind: 'unreadable',
        text: `${log}: hermes cannot write ${log}: ${home}/logs is a file where a folder should be. Fix: move it aside (mv ${home}/logs ${home}/logs.file); hermes then creates the folder. Log lines go to stderr meanwhile.`,
      },
    ]);
    const session = await backend.request('session.create', {});
    await backend.request('prompt.submit', { session_id: session.session_id, text: 'hi' });
    const done = (await backend.waitForEvent((e) => e.type === 'message.complete')) as EventOf<'message.complete'>;
    expect(done.payload).toMatchObject({ status: 'complete', text: 'fine' });
  });

  it('logs/ that is a file and a client gone from stderr: the backend answers, then exits on EOF (no EPIPE loop)', async () => {
    const { backend } = await backendWithLogsFile();
    await backend.request('session.create', {});
    // Log lines now go to a pipe nobody reads: each write fails with EPIPE.
    backend.child.stderr.destroy();
    const { session_id: sid } = await backend.request('session.create', {});
    await backend.request('prompt.submit', { session_id: sid, text: 'hi' });
    await backend.waitForEvent((e) => e.type === 'message.complete' && e.session_id === sid);
    backend.child.stdin.end();
    expect(await backend.exited).toBe(0);
  });

  it('state.db deleted while the backend runs: the next prompt writes it back, says so, and nothing is lost', async () => {
    const args = await modelArgs();
    const first = new BackendProcess({ args });
    cleanups.push(() => first.stop());
    const { session_id: sid, stored_session_id: stored } = await first.request('session.create', {});
    await first.request('prompt.submit', { session_id: sid, text: 'before the delete' });
    await first.waitForEvent((e) => e.type === 'message.complete');
    const db = path.join(first.home, 'state.db');
    for (const file of [db, `${db}-wal`, `${db}-shm`]) fs.rmSync(file, { force: true });

    await first.request('prompt.submit', { session_id: sid, text: 'after the delete' });
    const notice = (await first.waitForEvent((e) => e.type === 'status.update' && e.payload?.kind === 'warn')) as EventOf<'status.update'>;
    expect(notice.payload!.text).toBe(
      `The session database ${db} was deleted while hermes ran; hermes wrote back the sessions it held, so nothing is lost. To start afresh, quit hermes first, then move it aside.`,
    );
    await first.waitForEvent((e) => e.type === 'message.complete' && e.payload?.text === 'fine' && first.events.filter((x) => x.type === 'message.complete').length === 2);
    expect(await first.stop()).toBe(0);

    const second = new BackendProcess({ args, home: first.home });
    cleanups.push(() => second.stop());
    const resumed = await second.request('session.resume', { session_id: stored });
    expect(resumed.messages.map((m) => `${m.role}: ${m.text}`)).toEqual(['user: before the delete', 'assistant: fine', 'user: after the delete', 'assistant: fine']);
  });

  it('state.db replaced by another file while the backend runs: the prompt is refused with where the sessions were saved and the fix', async () => {
    const backend = new BackendProcess({ args: await modelArgs() });
    cleanups.push(() => backend.stop());
    const { session_id: sid, stored_session_id: stored } = await backend.request('session.create', {});
    const db = path.join(backend.home, 'state.db');
    for (const file of [db, `${db}-wal`, `${db}-shm`]) fs.rmSync(file, { force: true });
    fs.writeFileSync(db, 'someone else\'s file\n');
    const kept = `${db}.kept-${backend.child.pid}`;
    await expect(backend.request('prompt.submit', { session_id: sid, text: 'hello?' })).rejects.toThrow(
      `The session database ${db} was replaced by another file while hermes ran; hermes did not write to the new one. The sessions this hermes held are saved in ${kept}. Fix: quit hermes and start it again to use the new ${db} (or, to keep using the saved sessions, move ${kept} to ${db} first).`,
    );
    expect(fs.readFileSync(db, 'utf8')).toBe('someone else\'s file\n');
    const saved = SessionStore.open(kept);
    expect(saved.getSession(stored)).toBeDefined();
    saved.close();
  });

  it('state.db locked by another program: a method that writes is refused naming the file and the fix, not "database is locked"', async () => {
    const backend = new BackendProcess({ args: await modelArgs() });
    cleanups.push(() => backend.stop());
    await backend.request('session.list', {});
    const file = path.join(backend.home, 'state.db');
    const holder = new Database(file);
    cleanups.push(() => holder.close());
    holder.exec('BEGIN EXCLUSIVE');
    cleanups.push(() => holder.exec('ROLLBACK'));
    await expect(backend.request('session.create', {})).rejects.toThrow(`The session database ${file} is locked by another program`);
  });

  it('a state.db that is not a database: exits 1 with one startup-error line naming the file and the fix', async () => {
    const home = tempDir('hermes-home-');
    fs.writeFileSync(path.join(home, 'state.db'), 'not a database\n'.repeat(20));
    const broken = new BackendProcess({ home, args: await modelArgs() });
    cleanups.push(() => broken.stop());
    expect(await broken.exited).toBe(1);
    const lines = broken.stderr.split('\n').filter((line) => line.startsWith(STARTUP_ERROR_PREFIX));
    expect(lines).toHaveLength(1);
    const file = path.join(home, 'state.db');
    expect(findStartupError(broken.stderr.split('\n'))).toBe(
      `The session database ${file} cannot be used: it is a text file, not a SQLite database. Fix: move it aside (mv ${file} ${file}.broken); hermes then creates a new, empty one. Your old sessions stay in the moved file.`,
    );
    expect(broken.stderr).not.toMatch(/^\s+at /m);
    // The stack-free reason is in the log too.
    expect(fs.readFileSync(path.join(home, 'logs', 'backend.log'), 'utf8')).toContain(`cannot start: The session database ${file}`);
  });
});
