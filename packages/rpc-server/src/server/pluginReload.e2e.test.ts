/**
 * Plugin reload through the real backend: a session opened before a plugin existed sees its tool,
 * hooks, middleware and context engine from its next turn, and loses them all when it is disabled.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import type { EventOf } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** Every registration kind a turn can observe, each leaving its own mark on the model request. */
const PLUGIN = `
export function register(ctx) {
  ctx.registerTool({
    name: 'reverse', toolset: 'reload', description: 'Reverses text',
    schema: { type: 'object', properties: { text: { type: 'string' } } },
    handler: (args) => [...String(args.text)].reverse().join(''),
  });
  // Marks the system message of every prompt it compresses: the request shows whether this engine ran.
  // Every message comes back as a copy, as an engine that rewrites the prompt returns it.
  ctx.registerContextEngine({
    name: 'marker',
    shouldCompress: () => true,
    compress: async ({ messages }) => ({
      messages: messages.map((m, i) => (i === 0 && !m.content.includes('ENGINE-MARK') ? { ...m, content: m.content + '\\nENGINE-MARK' } : { ...m })),
      removed: 1, beforeTokens: 10, afterTokens: 10, summary: 'marked',
    }),
  });
  ctx.registerHook('pre_llm_call', () => ({ context: 'HOOK-CONTEXT' }));
  ctx.registerMiddleware('llm_request', ({ request }) => ({
    request: { ...request, messages: request.messages.map((m, i) => (i === 0 ? { ...m, content: m.content + '\\nMIDDLEWARE-MARK' } : m)) },
    source: 'reload-test',
  }));
  ctx.registerCommand('mycmd', (args) => 'mycmd ran with: ' + args, 'A demo command');
}
`;

interface ModelBody {
  messages: { role: string; content: string }[];
  tools?: { function: { name: string } }[];
}

async function start(turns: Turn[], config?: string) {
  const server = await startModelServer({ turns });
  cleanups.push(() => server.close());
  const home = tempDir('hermes-reload-');
  const backend = new BackendProcess({ home, args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'm'], ...(config ? { config } : {}) });
  cleanups.push(() => backend.stop());
  const { session_id: sid } = await backend.request('session.create', {});
  /** Runs one user turn to its end; returns the model requests it made. */
  const turn = async (text: string): Promise<ModelBody[]> => {
    const before = server.requests.length;
    const ends = backend.eventsOf(sid).filter((e) => e.type === 'message.complete').length;
    await backend.request('prompt.submit', { session_id: sid, text });
    await backend.waitForEvent(() => backend.eventsOf(sid).filter((e) => e.type === 'message.complete').length > ends);
    return server.requests.slice(before).map((r) => r.body as ModelBody);
  };
  return { server, backend, sid, home, turn };
}

function addPlugin(home: string): void {
  fs.mkdirSync(path.join(home, 'plugins', 'demo'), { recursive: true });
  fs.writeFileSync(path.join(home, 'plugins', 'demo', 'plugin.yaml'), 'name: demo\n');
  fs.writeFileSync(path.join(home, 'plugins', 'demo', 'index.js'), PLUGIN);
}

const toolNames = (body: ModelBody) => (body.tools ?? []).map((t) => t.function.name);
const lastUser = (body: ModelBody) => body.messages.filter((m) => m.role === 'user').at(-1)!.content;

describe('plugin reload over the wire', () => {
  it('an open session gets a new plugin\'s tool, hooks, middleware and engine at its next turn, and loses them when it is disabled', async () => {
    const { backend, sid, home, turn } = await start([
      { text: 'before' },
      { tool_calls: [{ id: 'a', name: 'reverse', arguments: { text: 'abc' } }] },
      { text: 'with plugin' },
      { text: 'after' },
    ]);
    const [before] = await turn('one');
    expect(toolNames(before!)).not.toContain('reverse');
    expect(before!.messages[0]!.content).not.toMatch(/\breverse\b|MIDDLEWARE-MARK/);

    // The plugin appears on disk after the session opened; /reload-plugins in that same session.
    addPlugin(home);
    const reloaded = await backend.request('slash.exec', { session_id: sid, command: '/reload-plugins' });
    expect(reloaded.output).toBe('Reloaded 1 plugin(s).');

    const [asked, answered] = await turn('two');
    expect(toolNames(asked!)).toContain('reverse');
    expect(asked!.messages[0]!.content).toMatch(/Tools available: .*\breverse\b/);
    expect(asked!.messages[0]!.content).toContain('MIDDLEWARE-MARK');
    expect(asked!.messages[0]!.content).toContain('ENGINE-MARK');
    expect(lastUser(asked!)).toBe('two\n\nHOOK-CONTEXT');
    // The tool the model called ran through the registry the reload filled.
    expect(answered!.messages.find((m) => m.role === 'tool')!.content).toBe('cba');
    const compacted = backend.eventsOf(sid).filter((e): e is EventOf<'status.update'> => e.type === 'status.update' && e.payload?.kind === 'compacted');
    expect(compacted.length).toBeGreaterThan(0);
    expect(await backend.request('slash.exec', { session_id: sid, command: '/mycmd x' })).toEqual({ output: 'mycmd ran with: x' });
    expect((await backend.request('slash.exec', { session_id: sid, command: '/help' })).output).toContain('/mycmd');

    // Disabling through config.set reloads by itself.
    const set = await backend.request('config.set', { key: 'plugins.disabled', value: ['demo'] });
    expect(set.warning).toBe('Saved to config.yaml. Reloaded 0 plugin(s) (1 disabled in config).');
    const compactedBefore = backend.eventsOf(sid).filter((e) => e.type === 'status.update' && e.payload?.kind === 'compacted').length;
    const [after] = await turn('three');
    expect(toolNames(after!)).not.toContain('reverse');
    expect(toolNames(after!)).toContain('read_file');
    // Neither the plugin's engine, its middleware nor its hook ran; the built-in engine leaves a short prompt alone.
    expect(after!.messages[0]!.content).not.toMatch(/\breverse\b|MIDDLEWARE-MARK|ENGINE-MARK/);
    expect(lastUser(after!)).toBe('three');
    expect(backend.eventsOf(sid).filter((e) => e.type === 'status.update' && e.payload?.kind === 'compacted')).toHaveLength(compactedBefore);
    await expect(backend.request('slash.exec', { session_id: sid, command: '/mycmd x' })).rejects.toMatchObject({ code: 4018 });
    const { commands } = await backend.request('commands.catalog', {});
    expect(commands.some((c) => c.name === 'mycmd')).toBe(false);
    expect((await backend.request('slash.exec', { session_id: sid, command: '/help' })).output).not.toContain('/mycmd');
  });
});

describe('plugin reload during a turn', () => {
  it('the running turn finishes with the tools and engine it started with; the next turn has the new ones', async () => {
    const gate = tempDir('hermes-reload-gate-');
    const go = path.join(gate, 'go');
    const { server, backend, sid, home, turn } = await start([
      // A command that waits for the test: the reload happens while this turn is in its tool call.
      { tool_calls: [{ id: 'w', name: 'terminal', arguments: { command: `while [ ! -e '${go}' ]; do sleep 0.05; done; echo waited` } }] },
      { text: 'first turn done' },
      { text: 'second turn' },
    ]);
    await backend.request('prompt.submit', { session_id: sid, text: 'wait' });
    await backend.waitForEvent((e) => e.session_id === sid && e.type === 'tool.start');
    addPlugin(home);
    expect((await backend.request('slash.exec', { session_id: sid, command: '/reload-plugins' })).output).toBe('Reloaded 1 plugin(s).');
    fs.writeFileSync(go, '');
    await backend.waitForEvent((e) => e.session_id === sid && e.type === 'message.complete');
    const [started, continued] = server.requests.map((r) => r.body as ModelBody);
    expect(continued!.messages.find((m) => m.role === 'tool')!.content).toContain('waited');
    expect(toolNames(continued!)).toEqual(toolNames(started!));
    expect(toolNames(continued!)).not.toContain('reverse');
    expect(continued!.messages[0]!.content).not.toMatch(/\breverse\b|ENGINE-MARK/);
    // Hooks and middleware are not per turn: a reload adds or removes them from the very next call.
    expect(continued!.messages[0]!.content).toContain('MIDDLEWARE-MARK');

    const [next] = await turn('again');
    expect(toolNames(next!)).toContain('reverse');
    expect(next!.messages[0]!.content).toContain('ENGINE-MARK');
  });
});

describe('plugin toolsets across a reload', () => {
  it('a toolset named in config.yaml that a plugin provides is offered once a reload brings it, no longer reported unknown, and the plugin counted', async () => {
    const { backend, home, turn } = await start([{ text: 'a' }], 'toolsets: [file, reload]\n');
    const first = await backend.request('session.create', {});
    expect(first.info.config_problems?.map((p) => p.text)).toEqual([expect.stringContaining('Unknown toolset "reload"')]);
    expect(first.info.plugin_count).toBe(0);
    addPlugin(home);
    await backend.request('config.set', { key: 'plugins.enabled', value: ['demo'] });
    // The session already open is told the new truth at once (its status line counts the plugin).
    const told = await backend.waitForEvent(
      (e) => e.session_id === first.session_id && e.type === 'session.info' && e.payload.plugin_count === 1,
    );
    expect(told.type === 'session.info' && told.payload.toolsets.reload).toEqual(['reverse']);
    const second = await backend.request('session.create', {});
    expect(second.info.config_problems).toBeUndefined();
    expect(second.info.toolsets.reload).toEqual(['reverse']);
    expect(second.info.plugin_count).toBe(1);
    // The session opened before the reload: only the selected toolsets, the plugin's now among them.
    const [request] = await turn('go');
    expect(toolNames(request!).sort()).toEqual(['patch', 'read_file', 'reverse', 'write_file']);
  });
});
