/**
 * A Hermes user's `~/.hermes` (scripts/fixtures/hermes-home/, copied) opened by the real backend: a
 * session and a turn against the scripted model with no error and no config problem; the keys hermes
 * understands are honoured (model, toolsets, approvals, command_allowlist), the Python plugin is listed
 * as not loadable here with what it needs, and no file of the home is rewritten.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import { addedFiles, addHermesStateDb, changedFiles, fileHash, hermesHomeCopy, snapshotFiles, type HomeVariant } from '../../../../scripts/testing/hermesHomeFixture.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import type { EventOf, ServerRequestMap } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const FIXTURE_KEY = 'sk-or-v1-fixture0000000000000000000000000000000000000000000000';
/** What hermes may add to a home: its session store, its logs, its plugin load records. Nothing else. */
const MAY_ADD = /^(state\.db(-wal|-shm)?|logs\/[\w.-]+|plugins\/\.(last-load|loading)\.json)$/;

/** One turn: an allowlisted delete (`recursive delete`), then a recursive chmod the allowlist does not cover. */
function cleanupTurn(dir: string): Turn[] {
  return [
    { tool_calls: [{ name: 'terminal', arguments: { command: `rm -rf ${dir}/build` } }] },
    { tool_calls: [{ name: 'terminal', arguments: { command: `chmod -R 777 ${dir}/keep` } }] },
    { text: 'Cleaned up.' },
  ];
}

async function openHome(variant: HomeVariant) {
  const home = hermesHomeCopy(variant);
  const before = snapshotFiles(home);
  const work = tempDir('hermes-fixture-work-');
  fs.mkdirSync(path.join(work, 'build'));
  fs.mkdirSync(path.join(work, 'keep'));
  const server = await startModelServer({ turns: cleanupTurn(work) });
  cleanups.push(() => server.close());
  // The provider, model and key are the home's; only the endpoint is the scripted server's.
  const backend = new BackendProcess({ home, args: ['--base-url', server.baseUrl] });
  cleanups.push(() => backend.stop());
  const asked: ServerRequestMap['approval']['params'][] = [];
  backend.connection.onRequest('approval', (params: ServerRequestMap['approval']['params']) => {
    asked.push(params);
    return { choice: 'deny' };
  });
  const ready = (await backend.waitForEvent((e) => e.type === 'gateway.ready')) as EventOf<'gateway.ready'>;
  const session = await backend.request('session.create', { cwd: work });
  await backend.request('prompt.submit', { session_id: session.session_id, text: 'clean up the build folder' });
  const done = (await backend.waitForEvent((e) => e.type === 'message.complete' && e.session_id === session.session_id)) as EventOf<'message.complete'>;
  const plugins = (await backend.request('plugins.list', {})).plugins;
  const slashPlugins = (await backend.request('slash.exec', { session_id: session.session_id, command: '/plugins' })).output;
  await backend.stop();
  return { home, before, after: snapshotFiles(home), work, server, ready, session, done, asked, plugins, slashPlugins, log: backend.log() };
}

const toolNames = (body: unknown) => ((body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name);

describe('a Hermes home opened by the backend', () => {
  it('model as a mapping: runs a turn with its model, key, toolsets, approval mode and allowlist; rewrites nothing', async () => {
    const opened = await openHome('model-mapping');
    expect(opened.ready.payload?.config_problems ?? []).toEqual([]);
    expect(opened.session.info).toMatchObject({ model: 'anthropic/claude-opus-4.6', approval_mode: 'manual' });
    expect(opened.session.info.config_problems ?? []).toEqual([]);
    expect(opened.done.payload).toMatchObject({ status: 'complete', text: 'Cleaned up.' });

    // model.provider openrouter + model.default, the key from the home's .env.
    const first = opened.server.requests[0]!;
    expect((first.body as { model: string }).model).toBe('anthropic/claude-opus-4.6');
    expect(first.headers.authorization).toBe(`Bearer ${FIXTURE_KEY}`);
    // toolsets: [terminal, file, todo, web]: those hermes has, and no others (web is Hermes's only).
    const offered = toolNames(first.body);
    expect(offered).toEqual(expect.arrayContaining(['terminal', 'read_file', 'write_file', 'todo']));
    for (const absent of ['memory', 'skills_list', 'session_search', 'clarify']) expect(offered).not.toContain(absent);

    // command_allowlist's `recursive delete` let the delete run unasked; approvals.mode manual asked about the chmod.
    expect(fs.existsSync(path.join(opened.work, 'build'))).toBe(false);
    expect(opened.asked.map((a) => a.command)).toEqual([`chmod -R 777 ${opened.work}/keep`]);

    expect(opened.plugins).toEqual([
      expect.objectContaining({
        name: 'honcho-memory',
        version: '1.2.0',
        enabled: false,
        failed: false,
        error: 'not loadable here (Python)',
        missing_env: [{ name: 'HONCHO_API_KEY' }, { name: 'HONCHO_PROJECT_ID', description: 'Honcho project identifier' }],
      }),
    ]);
    expect(opened.slashPlugins).toBe(
      '○ honcho-memory 1.2.0 (user) tools 0, hooks 0, middleware 0, commands 0 — not loadable here (Python) — missing env: HONCHO_API_KEY, HONCHO_PROJECT_ID (Honcho project identifier)',
    );
    // Not implemented keys are doctor's to list, not warnings in the log.
    expect(opened.log).not.toMatch(/unknown key|Unknown toolset/);

    expect(changedFiles(opened.before, opened.after)).toEqual([]);
    expect(addedFiles(opened.before, opened.after).filter((file) => !MAY_ADD.test(file))).toEqual([]);
  });

  it('model as one provider/model string: openrouter/anthropic/claude-sonnet-4 is OpenRouter serving anthropic/claude-sonnet-4', async () => {
    const opened = await openHome('model-string');
    expect(opened.ready.payload?.config_problems ?? []).toEqual([]);
    expect(opened.session.info).toMatchObject({ model: 'anthropic/claude-sonnet-4', provider: 'openrouter', approval_mode: 'manual' });
    const first = opened.server.requests[0]!;
    expect((first.body as { model: string }).model).toBe('anthropic/claude-sonnet-4');
    expect(first.headers.authorization).toBe(`Bearer ${FIXTURE_KEY}`);
    // toolsets: [hermes-cli] is Hermes's name for the core toolsets.
    expect(toolNames(first.body)).toEqual(expect.arrayContaining(['terminal', 'read_file', 'memory', 'skills_list', 'clarify']));
    expect(opened.asked).toHaveLength(1);
    expect(changedFiles(opened.before, opened.after)).toEqual([]);
  });

  it("with Hermes's own state.db: a turn, list and resume use hermes-node.db beside it; Hermes's file and its sessions stay as they were", async () => {
    const home = hermesHomeCopy();
    const hermesDb = addHermesStateDb(home);
    const hash = fileHash(hermesDb);
    const before = snapshotFiles(home);
    const server = await startModelServer({ turns: [{ text: 'Hello from hermes.' }, { text: 'Still here.' }] });
    cleanups.push(() => server.close());
    const start = () => {
      const backend = new BackendProcess({ home, args: ['--base-url', server.baseUrl] });
      cleanups.push(() => backend.stop());
      return backend;
    };
    const first = start();
    const ready = (await first.waitForEvent((e) => e.type === 'gateway.ready')) as EventOf<'gateway.ready'>;
    expect(ready.payload?.config_problems ?? []).toEqual([]);
    const session = await first.request('session.create', {});
    await first.request('prompt.submit', { session_id: session.session_id, text: 'say hello' });
    const done = (await first.waitForEvent((e) => e.type === 'message.complete' && e.session_id === session.session_id)) as EventOf<'message.complete'>;
    expect(done.payload).toMatchObject({ status: 'complete', text: 'Hello from hermes.' });
    await first.stop();

    // A later start keeps using hermes-node.db: the session is listed (only hermes's, none of Hermes's) and resumes.
    const second = start();
    await second.waitForEvent((e) => e.type === 'gateway.ready');
    const { sessions } = await second.request('session.list', {});
    expect(sessions.map((s) => s.id)).toEqual([session.stored_session_id]);
    const resumed = await second.request('session.resume', { session_id: session.stored_session_id });
    expect(resumed.messages.map((m) => m.text)).toEqual(['say hello', 'Hello from hermes.']);
    await second.request('prompt.submit', { session_id: resumed.session_id, text: 'again' });
    await second.waitForEvent((e) => e.type === 'message.complete' && e.session_id === resumed.session_id);
    await second.stop();

    expect(fileHash(hermesDb)).toBe(hash);
    const after = snapshotFiles(home);
    expect(changedFiles(before, after)).toEqual([]);
    const added = addedFiles(before, after);
    expect(added).toEqual(expect.arrayContaining(['hermes-node.db']));
    // No -wal/-shm of Hermes's file: SQLite never opened it.
    expect(added.filter((file) => file.startsWith('state.db'))).toEqual([]);
    expect(added.filter((file) => !/^(hermes-node\.db(-wal|-shm)?|logs\/[\w.-]+|plugins\/\.(last-load|loading)\.json)$/.test(file))).toEqual([]);
    const hermes = new Database(hermesDb, { readonly: true, fileMustExist: true });
    expect(hermes.prepare('SELECT id FROM sessions ORDER BY started_at').all()).toEqual([{ id: '20251130_101500_a1b2c3' }, { id: '20251201_080000_d4e5f6' }]);
    expect(hermes.prepare('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 4 });
    hermes.close();
  });
});
