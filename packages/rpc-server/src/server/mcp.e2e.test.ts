/**
 * MCP servers through the real backend over real pipes: a scripted model calls an MCP tool and reads
 * its result; include/exclude decide what the model is offered; a destructive tool asks for approval;
 * `/mcp`, `mcp.list`, `reload.mcp` after config.yaml is edited, and `session.info.mcp_servers` as
 * servers come and go. The servers are real child processes over stdio: hermes's own test server
 * (scripts/mcp-servers/, built on the SDK's McpServer) and the published server-everything.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER as EVERYTHING, stdioTestServer } from '../../../../scripts/mcp-servers/launch.ts';
import { startModelServer, type ModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import type { EventOf, McpServerStatus, ServerRequestMap } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

type ApprovalParams = ServerRequestMap['approval']['params'];

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});


/** A config.yaml entry: `command` and `args`, then extra YAML lines under the server. */
const entry = (name: string, command: string, args: string[], extra: string[]) =>
  [`  ${name}:`, `    command: ${JSON.stringify(command)}`, `    args: ${JSON.stringify(args)}`, ...extra.map((l) => `    ${l}`)].join('\n');
/** hermes's stdio test server (echo, delete_file, lookup, …). */
const testServer = (name: string, ...extra: string[]) => entry(name, stdioTestServer().command, stdioTestServer().args, extra);
/** The published server-everything over stdio. */
const everything = (name: string, ...extra: string[]) => entry(name, process.execPath, [EVERYTHING, 'stdio'], extra);
/** Only the server's own tools: no resource or prompt wrappers. */
const TOOLS_ONLY = ['tools:', '  resources: false', '  prompts: false'];

const mcpConfig = (...servers: string[]) => `mcp_servers:\n${servers.join('\n')}\n`;

/** A backend on a temp home with `config` as its config.yaml; `beforeSession` runs before the session is created. */
async function start(config: string, turns: Turn[] = [{ text: 'unused' }], beforeSession?: (backend: BackendProcess) => void) {
  const server: ModelServer = await startModelServer({ turns });
  cleanups.push(() => server.close());
  const home = tempDir('hermes-mcp-home-');
  fs.writeFileSync(path.join(home, 'config.yaml'), config);
  const backend = new BackendProcess({ home, args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'] });
  cleanups.push(() => backend.stop());
  beforeSession?.(backend);
  const session = await backend.request('session.create', { cwd: tempDir('hermes-mcp-work-') });
  return { server, backend, home, sid: session.session_id, info: session.info };
}

async function turn(backend: BackendProcess, sid: string, text: string) {
  const before = backend.eventsOf(sid).filter((e) => e.type === 'message.complete').length;
  await backend.request('prompt.submit', { session_id: sid, text });
  await backend.waitForEvent(() => backend.eventsOf(sid).filter((e) => e.type === 'message.complete').length > before, 60_000);
}

/** The function names the model was offered in request `index`. */
function offered(server: ModelServer, index: number): string[] {
  const body = server.requests[index]!.body as { tools?: { function: { name: string } }[] };
  return (body.tools ?? []).map((t) => t.function.name);
}

/** The result the model was sent for call `id` in request `index`. */
function toolResult(server: ModelServer, index: number, id: string): string | undefined {
  const body = server.requests[index]!.body as { messages: { role: string; tool_call_id?: string; content: string }[] };
  return body.messages.find((m) => m.role === 'tool' && m.tool_call_id === id)?.content;
}

/** Waits until every server has settled, and answers the statuses. */
async function settled(backend: BackendProcess): Promise<McpServerStatus[]> {
  return (await backend.request('mcp.list', { wait_ms: 30_000 })).servers;
}

const infos = (backend: BackendProcess, sid: string) => backend.eventsOf(sid).filter((e): e is EventOf<'session.info'> => e.type === 'session.info');

describe('MCP servers through the backend', () => {
  it('the model calls an MCP tool and its next request carries the result', async () => {
    const { server, backend, sid } = await start(mcpConfig(testServer('notes')), [
      { tool_calls: [{ id: 'm1', name: 'mcp_notes_echo', arguments: { text: 'the quokka smiles' } }] },
      { text: 'It echoed.' },
    ]);
    await turn(backend, sid, 'echo something through MCP');
    // The first call waited for the server (mcp_discovery_timeout): its tools were offered at once.
    expect(offered(server, 0)).toContain('mcp_notes_echo');
    expect(toolResult(server, 1, 'm1')).toContain('echo: the quokka smiles');
    const complete = backend.eventsOf(sid).find((e): e is EventOf<'tool.complete'> => e.type === 'tool.complete');
    expect(complete?.payload).toMatchObject({ name: 'mcp_notes_echo' });
    expect(complete?.payload.error).toBeUndefined();
  });

  it('a server whose tool set changes (tools/list_changed) tells the session: session.info with the new count', async () => {
    const { server, backend, sid } = await start(mcpConfig(testServer('notes', ...TOOLS_ONLY)), [
      { tool_calls: [{ id: 'a1', name: 'mcp_notes_add_tool', arguments: { name: 'wave' } }] },
      { text: 'Added.' },
      { text: 'unused' },
    ]);
    const [before] = await settled(backend);
    await turn(backend, sid, 'add a tool');
    expect(toolResult(server, 1, 'a1')).toContain('added wave');
    const told = await backend.waitForEvent(
      (e) => e.session_id === sid && e.type === 'session.info' && e.payload.mcp_servers?.[0]?.tool_count === before!.tool_count + 1,
    );
    expect((told as EventOf<'session.info'>).payload.mcp_servers).toEqual([{ name: 'notes', status: 'connected', tool_count: before!.tool_count + 1, error: null }]);
    expect((await backend.request('mcp.list', {})).servers[0]!.tools).toContain('mcp_notes_wave');
  });

  it('include and exclude decide which of a server\'s tools the model is offered (include wins)', async () => {
    const { server, backend, sid } = await start(
      mcpConfig(
        testServer('only', ...TOOLS_ONLY, '  include: [echo]', '  exclude: [echo]'),
        testServer('most', ...TOOLS_ONLY, '  exclude: [echo]'),
        testServer('all', ...TOOLS_ONLY),
      ),
      [{ text: 'fine' }],
    );
    await turn(backend, sid, 'what tools do you have?');
    const names = offered(server, 0);
    const of = (prefix: string) => names.filter((n) => n.startsWith(prefix));
    expect(of('mcp_only_')).toEqual(['mcp_only_echo']);
    expect(of('mcp_most_')).not.toContain('mcp_most_echo');
    expect(of('mcp_all_')).toContain('mcp_all_echo');
    // Everything but echo: one tool fewer than the unfiltered server, and more than none.
    expect(of('mcp_most_').length).toBe(of('mcp_all_').length - 1);
    const { servers } = await backend.request('mcp.list', {});
    expect(servers.map((s) => [s.name, s.tool_count])).toEqual([
      ['only', 1],
      ['most', of('mcp_most_').length],
      ['all', of('mcp_all_').length],
    ]);
  });

  it('a destructiveHint tool asks for approval on the wire: deny → it did not run; once → it ran', async () => {
    const answers = ['deny', 'once'];
    const asked: ApprovalParams[] = [];
    const turns: Turn[] = [
      { tool_calls: [{ id: 'd1', name: 'mcp_files_delete_file', arguments: { path: 'notes.txt' } }] },
      { text: 'Denied, then.' },
      { tool_calls: [{ id: 'd2', name: 'mcp_files_delete_file', arguments: { path: 'notes.txt' } }] },
      { text: 'Deleted.' },
      { tool_calls: [{ id: 'r1', name: 'mcp_files_lookup', arguments: { key: 'colour' } }] },
      { text: 'Looked up.' },
    ];
    const { server, backend, sid } = await start(mcpConfig(testServer('files')), turns, (backend) =>
      backend.connection.onRequest('approval', (params: ApprovalParams) => {
        asked.push(params);
        return { choice: answers.shift() };
      }),
    );

    await turn(backend, sid, 'delete my notes');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ session_id: sid, tool_name: 'mcp_files_delete_file' });
    expect(toolResult(server, 1, 'd1')).toMatch(/^BLOCKED: .* the user denied it/);
    expect(toolResult(server, 1, 'd1')).not.toContain('deleted notes.txt');

    await turn(backend, sid, 'delete them after all');
    expect(asked).toHaveLength(2);
    expect(toolResult(server, 3, 'd2')).toContain('deleted notes.txt');

    // A readOnlyHint tool of the same server runs without a question.
    await turn(backend, sid, 'look up the colour');
    expect(asked).toHaveLength(2);
    expect(toolResult(server, 5, 'r1')).toContain('value of colour');
  });

  it('/mcp lists each server with its status, tool count and error; session.info follows the servers', async () => {
    const crash = `process.stderr.write('cannot open the notes database\\n'); process.exit(3)`;
    const { backend, sid, info } = await start(
      mcpConfig(everything('everything'), `  broken:\n    command: ${JSON.stringify(process.execPath)}\n    args: ['-e', ${JSON.stringify(crash)}]`, everything('off', 'enabled: false')),
    );
    // At create, before any server could connect: every server is there, none connected yet.
    expect(info.mcp_servers?.map((s) => s.name)).toEqual(['everything', 'broken', 'off']);
    expect(info.mcp_servers?.find((s) => s.name === 'off')).toEqual({ name: 'off', status: 'disabled', tool_count: 0, error: null });

    const statuses = await settled(backend);
    const everythingTools = statuses.find((s) => s.name === 'everything')!.tool_count;
    expect(everythingTools).toBeGreaterThan(0);
    // The session was told, without asking: a session.info with the connected server and the failed one.
    const told = await backend.waitForEvent(
      (e) =>
        e.session_id === sid &&
        e.type === 'session.info' &&
        (e.payload.mcp_servers ?? []).some((s) => s.name === 'broken' && s.status === 'failed') &&
        (e.payload.mcp_servers ?? []).some((s) => s.name === 'everything' && s.status === 'connected'),
    );
    expect((told as EventOf<'session.info'>).payload.mcp_servers?.find((s) => s.name === 'everything')).toEqual({
      name: 'everything',
      status: 'connected',
      tool_count: everythingTools,
      error: null,
    });

    const { output } = await backend.request('slash.exec', { session_id: sid, command: '/mcp' });
    const lines = output!.split('\n');
    expect(lines[0]).toBe(`● everything — connected, ${everythingTools} tool(s) (stdio: ${process.execPath} ${EVERYTHING} stdio)`);
    expect(lines[1]).toMatch(/^✗ broken — failed, 0 tool\(s\) \(stdio: /);
    expect(output).toContain('cannot open the notes database');
    expect(output).toMatch(/^○ off — disabled, 0 tool\(s\)/m);
  });

  it('reload.mcp after config.yaml is edited adds and removes servers, and tells the session', async () => {
    const { server, backend, home, sid } = await start(mcpConfig(testServer('first')), [{ text: 'one' }, { text: 'two' }]);
    await turn(backend, sid, 'first turn');
    expect(offered(server, 0)).toContain('mcp_first_echo');

    fs.writeFileSync(path.join(home, 'config.yaml'), `# edited by hand\n${mcpConfig(testServer('second', ...TOOLS_ONLY, '  include: [echo]'))}`);
    const before = infos(backend, sid).length;
    const reloaded = await backend.request('reload.mcp', { session_id: sid });
    expect(reloaded.status).toBe('reloaded');
    expect(reloaded.message).toContain('● second — connected, 1 tool(s)');
    expect(reloaded.message).not.toContain('first');
    expect((await backend.request('mcp.list', {})).servers.map((s) => s.name)).toEqual(['second']);
    const after = infos(backend, sid).slice(before).at(-1);
    expect(after?.payload.mcp_servers).toEqual([{ name: 'second', status: 'connected', tool_count: 1, error: null }]);

    await turn(backend, sid, 'second turn');
    const names = offered(server, 1);
    expect(names).toContain('mcp_second_echo');
    expect(names.filter((n) => n.startsWith('mcp_first_'))).toEqual([]);
  });

  it('reload.mcp asks for confirmation while a turn runs, and reloads once confirmed', async () => {
    const { backend, home, sid } = await start(mcpConfig(testServer('first')), [{ text: 'slow answer', delay_ms: 20_000 }]);
    await settled(backend);
    await backend.request('prompt.submit', { session_id: sid, text: 'take your time' });
    fs.writeFileSync(path.join(home, 'config.yaml'), 'mcp_servers: {}\n');

    const asked = await backend.request('reload.mcp', { session_id: sid });
    expect(asked.status).toBe('confirm_required');
    expect(asked.message).toMatch(/A turn is running/);
    // Nothing changed meanwhile.
    expect((await backend.request('mcp.list', {})).servers.map((s) => s.name)).toEqual(['first']);

    expect(await backend.request('reload.mcp', { session_id: sid, confirm: true })).toEqual({ status: 'reloaded', message: 'Reloaded: config.yaml has no MCP servers.' });
    expect((await backend.request('mcp.list', {})).servers).toEqual([]);
    await backend.request('session.interrupt', { session_id: sid });
  });

  it('reload.mcp refuses a config.yaml that is not YAML and keeps the servers', async () => {
    const { backend, home } = await start(mcpConfig(testServer('first')));
    await settled(backend);
    fs.writeFileSync(path.join(home, 'config.yaml'), 'mcp_servers:\n  first: [unclosed\n');
    await expect(backend.request('reload.mcp', {})).rejects.toMatchObject({ code: 4004, message: expect.stringContaining('the MCP servers were left as they were') });
    expect((await backend.request('mcp.list', {})).servers.map((s) => [s.name, s.status])).toEqual([['first', 'connected']]);
  });

  it('config.set mcp_servers.<name> stores env and header values as written but answers without them', async () => {
    const { backend, home } = await start('mcp_servers:\n');
    const web = { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer sk-live-0123456789', 'X-Key': '${API_KEY}' } };
    const answer = await backend.request('config.set', { key: 'mcp_servers.web', value: web });
    expect(answer.value).toEqual({ url: web.url, headers: { Authorization: '[REDACTED]', 'X-Key': '${API_KEY}' } });
    const local = await backend.request('config.set', { key: 'mcp_servers.local', value: { command: 'srv', env: { TOKEN: 'tok-${USER}-x', EMPTY: '' } } });
    expect(local.value).toEqual({ command: 'srv', env: { TOKEN: '[REDACTED]${USER}[REDACTED]', EMPTY: '' } });
    expect(JSON.stringify([answer, local])).not.toMatch(/sk-live|tok-/);
    const written = fs.readFileSync(path.join(home, 'config.yaml'), 'utf8');
    for (const value of ['Authorization: Bearer sk-live-0123456789', 'X-Key: ${API_KEY}', 'TOKEN: tok-${USER}-x']) expect(written).toContain(value);
  });
});
