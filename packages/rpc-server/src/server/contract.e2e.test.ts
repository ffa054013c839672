/**
 * The contract over the real backend: every method of `Method` is called once with valid params, and
 * each result is parsed with its method's result schema here, as a client would; every event received
 * is parsed with its payload schema. The backend runs in check mode too (HERMES_CHECK_RESULTS=1, set
 * by BackendProcess), so a disagreement it finds is an error answer and a `contract check` log line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stdioTestServer } from '../../../../scripts/mcp-servers/launch.ts';
import { startModelServer } from '../../../../scripts/model-server/index.ts';
import { Method, type ParamsOf, type ResultOf } from '../protocol/index.ts';
import { EventSchemas, MethodSchemas } from '../protocol/schemas.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { disagreement } from './contractCheck.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A user plugin with one command-line command, so `cli.exec` has something to run. */
const PLUGIN = `export function register(ctx) {
  ctx.registerCliCommand('greet', { help: 'Says hello', handler: (args) => 'hello ' + args.join(' ') });
}
`;

function homeWithPlugin(): string {
  const home = tempDir('hermes-contract-');
  fs.mkdirSync(path.join(home, 'plugins', 'greeter'), { recursive: true });
  fs.writeFileSync(path.join(home, 'plugins', 'greeter', 'plugin.yaml'), 'name: greeter\nversion: 1.0\nrequires_env:\n  - name: GREETER_TOKEN\n    description: a token it does not need\n');
  fs.writeFileSync(path.join(home, 'plugins', 'greeter', 'index.js'), PLUGIN);
  // An MCP server, so mcp.list, mcp.test and reload.mcp have one to report.
  const mcp = stdioTestServer();
  fs.writeFileSync(path.join(home, 'config.yaml'), `mcp_servers:\n  contract:\n    command: ${JSON.stringify(mcp.command)}\n    args: ${JSON.stringify(mcp.args)}\n`);
  return home;
}

describe('the contract over the wire', () => {
  it('serves every method, each result agreeing with its schema, and every event with its payload schema', async () => {
    const server = await startModelServer({ loop: true, turns: [{ text: 'The quokka is a small marsupial.' }] });
    cleanups.push(() => server.close());
    const backend = new BackendProcess({ home: homeWithPlugin(), args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'] });
    cleanups.push(() => backend.stop());

    const called = new Set<Method>();
    /** Calls a method and checks its result against the method's result schema. */
    async function call<M extends Method>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
      const result = await backend.request(method, params);
      expect(disagreement(MethodSchemas[method].result, result), `${method} result`).toBeUndefined();
      called.add(method);
      return result;
    }

    const a = await call('session.create', { title: 'Contract' });
    const sid = a.session_id;
    await call('prompt.submit', { session_id: sid, text: 'Tell me about the quokka' });
    await backend.waitForEvent((e) => e.type === 'message.complete' && e.session_id === sid);
    await call('session.history', { session_id: sid });
    await call('session.usage', { session_id: sid });
    await call('session.export', { session_id: sid, format: 'md' });
    await call('session.title', { session_id: sid, title: 'Quokka facts' });
    await call('session.list', {});
    await call('session.search', { query: 'marsupial' });
    await call('session.interrupt', { session_id: sid });
    await call('commands.catalog', { session_id: sid });
    await call('complete.slash', { text: '/he' });
    await call('complete.path', { word: './', cwd: backend.home });
    await call('slash.exec', { session_id: sid, command: '/help' });
    await call('process.stop', { session_id: sid });
    await call('config.get', { key: 'approvals.mode' });
    await call('config.set', { key: 'yolo', value: false, session_id: sid });
    await call('model.options', {});
    await call('tools.list', {});
    await call('plugins.list', {});
    expect((await call('mcp.list', {})).servers.map((s) => s.name)).toEqual(['contract']);
    expect(await call('mcp.test', { name: 'contract' })).toMatchObject({ ok: true, tools: expect.arrayContaining(['echo']) });
    expect(await call('reload.mcp', { session_id: sid })).toMatchObject({ status: 'reloaded' });
    expect((await call('plugins.list', {})).plugins[0]).toMatchObject({ failed: false, missing_env: [{ name: 'GREETER_TOKEN', description: 'a token it does not need' }] });
    await call('shell.exec', { command: 'echo contract' });
    expect(await call('shell.cancel', { session_id: sid })).toEqual({ stopped: 0 });
    expect(await call('cli.exec', { argv: ['greet', 'world'] })).toEqual({ code: 0, output: 'hello world' });
    await call('approval.respond', { session_id: sid, request_id: 'srq-none', choice: 'deny' });
    await call('clarify.respond', { request_id: 'srq-none', answer: 'nothing' });
    await call('approvals.check', { command: 'rm -rf ~/.ssh' });
    expect((await call('doctor.check', { online: true, timeout_ms: 10_000 })).checks).toContainEqual(expect.objectContaining({ name: 'online', status: 'ok' }));
    await call('session.compress', { session_id: sid });
    const branch = await call('session.branch', { session_id: sid, name: 'quokka branch' });
    await call('session.undo', { session_id: branch.session_id });
    await call('session.close', { session_id: branch.session_id });
    await call('session.delete', { session_id: branch.stored_session_id });
    await call('session.resume', { session_id: a.stored_session_id });

    // A method added to the protocol must be added here too.
    expect([...called].sort()).toEqual(Object.values(Method).sort());
    for (const event of backend.events) {
      expect(disagreement(EventSchemas[event.type], event.payload), `${event.type} payload`).toBeUndefined();
    }
    expect(backend.events.map((e) => e.type)).toEqual(expect.arrayContaining(['session.info', 'message.start', 'message.delta', 'message.complete', 'session.title']));
    expect(backend.log()).not.toContain('contract check');
  });
});
