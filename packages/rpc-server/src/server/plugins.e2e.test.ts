/** Plugins through the real backend process: a user plugin's tool, hook, middleware and /command. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import type { EventOf } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const PLUGIN = `
export function register(ctx) {
  ctx.registerTool({
    name: 'shout', toolset: 'demo', description: 'Upper-cases text',
    schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    handler: (args) => String(args.text).toUpperCase(),
  });
  ctx.registerSkill('greeting', new URL('./greeting/SKILL.md', import.meta.url).pathname, 'How to greet');
  ctx.registerCommand('mycmd', (args) => 'mycmd ran with: ' + args, 'A demo command', '<words>');
  ctx.registerHook('pre_llm_call', () => ({ context: 'PLUGIN-CONTEXT' }));
  ctx.registerHook('pre_tool_call', ({ tool_name, args }) =>
    tool_name === 'terminal' && /rm\\s+-rf/.test(String(args.command)) ? { action: 'block', message: 'policy: no rm -rf' } : null);
  // Rewrites the model's path: the tool sees (and the gate would judge) the rewritten args.
  ctx.registerMiddleware('tool_request', ({ tool_name, args }) =>
    tool_name === 'shout' ? { args: { text: args.text + ' (rewritten)' }, source: 'demo', reason: 'test' } : null);
}
`;

function home(): string {
  const dir = tempDir('hermes-plugins-');
  fs.mkdirSync(path.join(dir, 'plugins', 'demo'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'plugins', 'demo', 'plugin.yaml'), 'name: demo\nversion: 1.0\n');
  fs.writeFileSync(path.join(dir, 'plugins', 'demo', 'index.js'), PLUGIN);
  fs.mkdirSync(path.join(dir, 'plugins', 'demo', 'greeting'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'plugins', 'demo', 'greeting', 'SKILL.md'), '---\nname: greeting\ndescription: How to greet\n---\nSay hello warmly.\n');
  fs.mkdirSync(path.join(dir, 'skills', 'deploy'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'skills', 'deploy', 'SKILL.md'), '---\nname: deploy\ndescription: Ship the app to production\n---\nRun the deploy script.\n');
  fs.mkdirSync(path.join(dir, 'plugins', 'broken'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'plugins', 'broken', 'plugin.yaml'), 'name: broken\nversion: [oops\n');
  return dir;
}

async function start(turns: Turn[]) {
  const server: ModelServer = await startModelServer({ turns });
  cleanups.push(() => server.close());
  const backend = new BackendProcess({ home: home(), args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'm'] });
  cleanups.push(() => backend.stop());
  const { session_id: sid } = await backend.request('session.create', {});
  return { server, backend, sid };
}

describe('plugins over the wire', () => {
  it('loads a user plugin beside a broken one; its tool, hooks, middleware and command work', async () => {
    const target = tempDir('hermes-plugin-target-');
    const { server, backend, sid } = await start([
      { tool_calls: [{ id: 'a', name: 'shout', arguments: { text: 'hi' } }, { id: 'b', name: 'terminal', arguments: { command: `rm -rf ${target}` } }] },
      { text: 'done' },
    ]);
    const { plugins } = await backend.request('plugins.list', {});
    expect(plugins.find((p) => p.name === 'demo')).toMatchObject({ enabled: true, tools: 1, hooks: 2, middleware: 1, commands: 1, error: null, version: '1.0' });
    expect(plugins.find((p) => p.name === 'broken')!.error).toMatch(/plugin\.yaml line \d/);

    await backend.request('prompt.submit', { session_id: sid, text: 'go' });
    await backend.waitForEvent((e) => e.type === 'message.complete');
    const first = server.requests[0]!.body as { messages: { role: string; content: string }[] };
    expect(first.messages.at(-1)!.content).toBe('go\n\nPLUGIN-CONTEXT');
    expect(first.messages[0]!.content).not.toContain('PLUGIN-CONTEXT');
    const history = await backend.request('session.history', { session_id: sid });
    expect(history.messages[0]!.text).toBe('go');
    const tools = (server.requests[1]!.body as { messages: { role: string; tool_call_id?: string; content: string }[] }).messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.content)).toEqual(['HI (REWRITTEN)', 'policy: no rm -rf']);
    expect(fs.existsSync(target)).toBe(true);
  });

  it('lists, completes and runs the plugin command beside the built-ins; /stop interrupts a stream', async () => {
    const long: Turn = { text: Array.from({ length: 300 }, (_, i) => `w${i} `).join(''), chunk_size: 5, chunk_delay_ms: 20 };
    const { backend, sid } = await start([long]);
    const { commands } = await backend.request('commands.catalog', {});
    expect(commands.find((c) => c.name === 'mycmd')).toMatchObject({ source: 'demo', description: 'A demo command', args_hint: '<words>' });
    expect(commands.find((c) => c.name === 'stop')).toMatchObject({ source: 'builtin' });
    const completion = await backend.request('complete.slash', { text: '/my' });
    expect(completion.items[0]!.text).toBe('/mycmd');
    expect(await backend.request('slash.exec', { session_id: sid, command: '/mycmd a b' })).toEqual({ output: 'mycmd ran with: a b' });
    const help = await backend.request('slash.exec', { session_id: sid, command: '/help' });
    expect(help.output).toMatch(/Plugin: demo[\s\S]*\/mycmd/);
    await expect(backend.request('slash.exec', { session_id: sid, command: '/stpo' })).rejects.toMatchObject({ code: 4018, message: expect.stringContaining('/stop') });

    await backend.request('prompt.submit', { session_id: sid, text: 'talk' });
    await backend.waitForEvent((e) => e.type === 'message.delta');
    const stopped = await backend.request('slash.exec', { session_id: sid, command: '/stop' });
    expect(stopped.output).toMatch(/Interrupted/);
    const done = (await backend.waitForEvent((e) => e.type === 'message.complete')) as EventOf<'message.complete'>;
    expect(done.payload!.status).toBe('interrupted');
    expect(done.payload!.text.length).toBeGreaterThan(0);
  });

  it('lists user skills in the system prompt and loads a plugin skill on request', async () => {
    const { server, backend, sid } = await start([
      { tool_calls: [{ name: 'skill_view', arguments: { name: 'demo:greeting' } }] },
      { text: 'ok' },
    ]);
    await backend.request('prompt.submit', { session_id: sid, text: 'greet' });
    await backend.waitForEvent((e) => e.type === 'message.complete');
    const first = server.requests[0]!.body as { messages: { role: string; content: string }[] };
    expect(first.messages[0]!.content).toContain('- deploy: Ship the app to production');
    expect(first.messages[0]!.content).not.toContain('greeting');
    const second = server.requests[1]!.body as { messages: { role: string; content: string }[] };
    expect(second.messages.find((m) => m.role === 'tool')!.content).toContain('Say hello warmly.');
  });

  it('disabling a plugin is saved to config.yaml and takes effect on /reload-plugins', async () => {
    const { backend, sid } = await start([{ text: 'unused' }]);
    const set = await backend.request('config.set', { key: 'plugins.disabled', value: ['demo'] });
    expect(set).toMatchObject({ key: 'plugins.disabled', value: ['demo'] });
    expect(fs.readFileSync(path.join(backend.home, 'config.yaml'), 'utf8')).toMatch(/disabled:\n\s+- demo/);
    const reloaded = await backend.request('slash.exec', { session_id: sid, command: '/reload-plugins' });
    expect(reloaded.output).toMatch(/Reloaded/);
    const { plugins } = await backend.request('plugins.list', {});
    expect(plugins.find((p) => p.name === 'demo')).toMatchObject({ enabled: false, tools: 0, commands: 0 });
    const { commands } = await backend.request('commands.catalog', {});
    expect(commands.some((c) => c.name === 'mycmd')).toBe(false);
    const { toolsets } = await backend.request('tools.list', {});
    expect(toolsets.flatMap((t) => t.tools)).not.toContain('shout');
  });
});
