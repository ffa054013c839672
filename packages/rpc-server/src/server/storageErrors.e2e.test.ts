/**
 * Storage failures are answered as storage errors (5007) naming the file and the fix, through the
 * real backend process: a state.db another program holds locked, a config.yaml that cannot be
 * written. A caller's own mistake (a title another session has) stays a usage error (4004).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ResponseError } from 'vscode-jsonrpc/node';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import { ErrorCode, type EventOf } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function backend(turns: Turn[] = [{ text: 'fine' }]): Promise<BackendProcess> {
  const server = await startModelServer({ loop: true, turns });
  cleanups.push(() => server.close());
  const home = tempDir('hermes-storage-');
  const started = new BackendProcess({ home, args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'] });
  cleanups.push(() => started.stop());
  return started;
}

/** The JSON-RPC error a request is answered with. */
async function refusal(request: Promise<unknown>): Promise<ResponseError<unknown>> {
  const error = await request.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResponseError);
  return error as ResponseError<unknown>;
}

describe('storage errors on the wire', () => {
  it('session.title on a state.db another program holds locked: 5007 naming the file and the fix; a taken title is still 4004', async () => {
    const hermes = await backend();
    const { session_id: sid } = await hermes.request('session.create', {});
    await hermes.request('session.create', { title: 'taken' });

    const taken = await refusal(hermes.request('session.title', { session_id: sid, title: 'taken' }));
    expect(taken.code).toBe(ErrorCode.UsageError);
    expect(taken.message).toBe('Another session already has the title "taken"; choose a different title.');

    const file = path.join(hermes.home, 'state.db');
    const holder = new Database(file);
    cleanups.push(() => holder.close());
    holder.exec('BEGIN EXCLUSIVE');
    const locked = await refusal(hermes.request('session.title', { session_id: sid, title: 'renamed' }));
    holder.exec('ROLLBACK');

    expect(locked.code).toBe(ErrorCode.StorageError);
    expect(locked.message).toContain(`The session database ${file} is locked by another program`);
    expect(locked.message).toMatch(/Fix: close the other hermes/);
    expect(hermes.log()).toMatch(/session\.title failed \(StoreError, code 5007\): The session database .* is locked/);
    // Nothing was half-done: the old title stands, and the session still works once the lock is gone.
    expect(await hermes.request('session.title', { session_id: sid })).toEqual({ title: null });
    expect(await hermes.request('session.title', { session_id: sid, title: 'renamed' })).toEqual({ title: 'renamed' });
  });

  it('a locked state.db never loses an open session: session.resume over it and session.close still do what they say', async () => {
    const hermes = await backend();
    const first = await hermes.request('session.create', {});
    const other = await hermes.request('session.create', {});
    const holder = new Database(path.join(hermes.home, 'state.db'));
    cleanups.push(() => holder.close());
    holder.exec('BEGIN EXCLUSIVE');
    // Resuming the open session replaces it: the old id is closed and the new one usable (it answered 5007 with both gone).
    const resumed = await hermes.request('session.resume', { session_id: first.stored_session_id });
    expect(resumed.stored_session_id).toBe(first.stored_session_id);
    await expect(hermes.request('session.usage', { session_id: first.session_id })).rejects.toMatchObject({ code: ErrorCode.SessionNotFound });
    expect(await hermes.request('session.close', { session_id: other.session_id })).toEqual({ closed: true });
    holder.exec('ROLLBACK');
    expect(hermes.log()).toMatch(/session \S+ closed, but its end was not stored: The session database .* is locked/);
    await hermes.request('prompt.submit', { session_id: resumed.session_id, text: 'still here?' });
    await hermes.waitForEvent((e) => e.session_id === resumed.session_id && e.type === 'message.complete');
  });

  it('config.set when config.yaml cannot be read or written: 5007 naming the file and the fix', async () => {
    const hermes = await backend();
    const config = path.join(hermes.home, 'config.yaml');
    fs.rmSync(config, { force: true });
    fs.mkdirSync(config);

    const refused = await refusal(hermes.request('config.set', { key: 'plugins.disabled', value: ['x'] }));
    expect(refused.code).toBe(ErrorCode.StorageError);
    expect(refused.message).toBe(`${config} is a folder, not a file. Fix: move it aside (mv ${config} ${config}.folder); hermes then writes a new one. The file was not changed.`);
  });

  it('an "always" approval that config.yaml cannot keep is allowed and says it was not saved, naming the file and the fix', async () => {
    const target = path.join(tempDir('hermes-always-'), 'build');
    const hermes = await backend([{ tool_calls: [{ name: 'terminal', arguments: { command: `rm -rf ${target}` } }] }, { text: 'done' }]);
    hermes.connection.onRequest('approval', () => ({ choice: 'always' }));
    const config = path.join(hermes.home, 'config.yaml');
    fs.rmSync(config, { force: true });
    fs.mkdirSync(config);
    const { session_id: sid } = await hermes.request('session.create', {});
    await hermes.request('prompt.submit', { session_id: sid, text: 'clean up' });
    await hermes.waitForEvent((e) => e.session_id === sid && e.type === 'message.complete');
    const warnings = hermes
      .eventsOf(sid)
      .filter((e): e is EventOf<'status.update'> => e.type === 'status.update' && e.payload?.kind === 'warn')
      .map((e) => e.payload?.text);
    expect(warnings).toEqual([expect.stringMatching(/^"always" was not saved to command_allowlist \(allowed until hermes exits\): .*config\.yaml is a folder, not a file\. Fix: move it aside/)]);
  });

  it('config.set of a config.yaml that is not valid YAML: the user\'s to fix, 4004', async () => {
    const hermes = await backend();
    const config = path.join(hermes.home, 'config.yaml');
    fs.writeFileSync(config, 'plugins: [unclosed\n');

    const refused = await refusal(hermes.request('config.set', { key: 'plugins.disabled', value: ['x'] }));
    expect(refused.code).toBe(ErrorCode.UsageError);
    expect(refused.message).toMatch(/config\.yaml line \d+: not valid YAML .*fix it, then try again/);
  });
});
