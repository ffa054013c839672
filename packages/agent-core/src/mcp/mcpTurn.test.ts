/**
 * MCP tools in a real turn: the runtime from a HERMES_HOME whose config.yaml has `mcp_servers`, the
 * stdio test server as a real child, the scripted model server. Covers discovery before the first
 * model call, `${VAR}` from .env kept out of the log, the store and the model's prompt, and approvals.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import { stdioTestServer } from '../../../../scripts/mcp-servers/launch.ts';
import { onCleanup } from '../../../../scripts/testing/tempDirs.ts';
import type { ApprovalChoice, ApprovalQuestion } from '../approvals/types.ts';
import type { AgentEvent } from '../agent/events.ts';
import { createFileLogger } from '../logging/logger.ts';
import { HermesRuntime } from '../runtime.ts';
import { homeWith } from '../testing/tempHome.ts';
import { serverFingerprint } from './toolNames.ts';

const TOKEN = 'svc-token-0a1b2c3d4e5f6789';
/** How approvals name the default test server's delete_file: the tool and a hash of the server's command line. */
const DELETE_TARGET = `mcp_test_delete_file#${serverFingerprint(stdioTestServer())}`;

async function start(turns: Turn[], options: { servers?: Record<string, object>; answer?: ApprovalChoice; extra?: object } = {}) {
  const model = await startModelServer({ turns });
  onCleanup(() => model.close());
  const servers = options.servers ?? { test: { ...stdioTestServer(), env: { SERVICE_TOKEN: '${MCP_TEST_TOKEN}' } } };
  const home = homeWith({ 'config.yaml': stringify({ mcp_servers: servers, ...options.extra }), '.env': `MCP_TEST_TOKEN=${TOKEN}\n` });
  const logFile = path.join(home, 'logs', 'backend.log');
  const runtime = new HermesRuntime({ home, env: {}, logger: createFileLogger(logFile), flags: { provider: 'custom', baseUrl: model.baseUrl, model: 'scripted-model' } });
  onCleanup(async () => {
    runtime.close();
    await runtime.mcp.close();
  });
  const questions: ApprovalQuestion[] = [];
  const events: AgentEvent[] = [];
  const session = runtime.openSession({
    cwd: home,
    emit: (event) => events.push(event),
    prompts: { approval: async (question) => (questions.push(question), options.answer ?? 'deny'), clarify: async () => null },
  });
  onCleanup(() => session.close());
  runtime.mcp.start();
  const sent = (request: number) => model.requests.filter((r) => r.path.endsWith('/chat/completions'))[request]!.body as { tools?: { function: { name: string } }[]; messages: { role: string; content: string }[] };
  return { runtime, session, questions, events, home, sent, log: () => fs.readFileSync(logFile, 'utf8') };
}

const call = (name: string, args: Record<string, unknown>, id = 'c1'): Turn => ({ tool_calls: [{ id, name, arguments: args }] });
const toolResults = (body: { messages: { role: string; content: string }[] }) => body.messages.filter((m) => m.role === 'tool').map((m) => m.content);

describe('MCP tools in a turn', () => {
  it('the first model call waits for discovery and offers the tools; ${VAR} from .env reaches the server and nothing else', async () => {
    const { session, sent, log, home, events } = await start([call('mcp_test_env_value', { name: 'SERVICE_TOKEN' }), { text: 'done' }, { text: 'again' }]);
    expect(await session.submit('show the token')).toMatchObject({ status: 'complete', text: 'done' });
    const waiting = (e: AgentEvent) => e.type === 'status.update' && e.payload.text === 'waiting for MCP servers to connect…';
    expect(events.filter(waiting)).toHaveLength(1);
    // Discovery is over: the next turn does not wait.
    await session.submit('again');
    expect(events.filter(waiting)).toHaveLength(1);
    const offered = sent(0).tools!.map((t) => t.function.name);
    expect(offered).toEqual(expect.arrayContaining(['mcp_test_echo', 'mcp_test_env_value', 'terminal']));
    expect(sent(0).messages[0]!.content).toContain('mcp_test_echo');
    const [result] = toolResults(sent(1));
    // The server had the value (not "(unset)"); the model got it redacted.
    expect(result).toMatch(/^SERVICE_TOKEN=\S*REDACTED/);
    expect(JSON.stringify(sent(1))).not.toContain(TOKEN);
    expect(log()).toContain('mcp: test connected (stdio');
    expect(log()).not.toContain(TOKEN);
    expect(fs.readFileSync(path.join(home, 'state.db')).includes(TOKEN)).toBe(false);
    expect(JSON.stringify(session.history())).not.toContain(TOKEN);
  });

  it('an unset ${VAR} is a status error naming it; the server is not started with an empty value', async () => {
    const { runtime, session } = await start([{ text: 'ok' }], { servers: { test: { ...stdioTestServer(), env: { KEY: '${NOT_SET_ANYWHERE}' } } } });
    await session.submit('hi');
    expect(runtime.mcp.statuses()[0]).toMatchObject({
      status: 'failed',
      tool_count: 0,
      error: expect.stringContaining('mcp_servers.test.env uses ${NOT_SET_ANYWHERE}, but NOT_SET_ANYWHERE is not set: set it in the environment or in $HERMES_HOME/.env'),
    });
  });

  it('a destructiveHint tool asks, showing the tool and its arguments; a denial blocks it; read-only tools do not ask', async () => {
    const { session, questions, sent } = await start([call('mcp_test_delete_file', { path: '/srv/data.txt' }), call('mcp_test_lookup', { key: 'k' }, 'c2'), { text: 'done' }]);
    await session.submit('clean up');
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatchObject({
      toolName: 'mcp_test_delete_file',
      command: 'mcp_test_delete_file {"path":"/srv/data.txt"}',
      findings: [{ level: 'dangerous', rule: 'mcp.destructive', target: DELETE_TARGET, why: 'call mcp_test_delete_file: the MCP server marks this tool destructive' }],
    });
    expect(toolResults(sent(1))[0]).toMatch(/^BLOCKED: `mcp_test_delete_file \{"path":"\/srv\/data.txt"\}` was not run/);
    expect(toolResults(sent(2))[1]).toBe('value of k');
  });

  it('"session" remembers mcp.destructive@<tool> for the session; "always" writes it to command_allowlist', async () => {
    const turns = [call('mcp_test_delete_file', { path: 'a' }), call('mcp_test_delete_file', { path: 'b' }, 'c2'), { text: 'done' }];
    const once = await start(turns, { answer: 'session' });
    await once.session.submit('delete two');
    expect(once.questions).toHaveLength(1);
    expect(toolResults(once.sent(2))).toEqual(['deleted a', 'deleted b']);

    const always = await start([call('mcp_test_delete_file', { path: 'c' }), { text: 'done' }], { answer: 'always' });
    await always.session.submit('delete');
    expect(fs.readFileSync(path.join(always.home, 'config.yaml'), 'utf8')).toContain(`mcp.destructive@${DELETE_TARGET}`);
  });

  it('"always" holds for that server only: another server later configured under the same name asks again', async () => {
    const allowlist = { command_allowlist: [`mcp.destructive@${DELETE_TARGET}`] };
    const same = await start([call('mcp_test_delete_file', { path: 'a' }), { text: 'done' }], { extra: allowlist });
    await same.session.submit('delete');
    expect(same.questions).toEqual([]);
    expect(toolResults(same.sent(1))).toEqual(['deleted a']);

    // A different command line under the same name (the test server ignores the extra argument).
    const other = stdioTestServer();
    const impostor = await start([call('mcp_test_delete_file', { path: 'b' }), { text: 'done' }], { servers: { test: { ...other, args: [...other.args, '--another-build'] } }, extra: allowlist });
    await impostor.session.submit('delete');
    expect(impostor.questions.map((q) => q.findings[0]!.target)).toEqual([`mcp_test_delete_file#${serverFingerprint({ ...other, args: [...other.args, '--another-build'] })}`]);
    expect(toolResults(impostor.sent(1))[0]).toMatch(/^BLOCKED/);
  });

  it('approval: ask asks for every call of that server, even read-only ones; approvals.mode off runs them unasked', async () => {
    const asking = await start([call('mcp_wary_lookup', { key: 'k' }), call('mcp_wary_echo', { text: 'x' }, 'c2'), { text: 'done' }], {
      servers: { wary: { ...stdioTestServer(), approval: 'ask' } },
      answer: 'once',
    });
    await asking.session.submit('go');
    expect(asking.questions.map((q) => [q.toolName, q.findings[0]!.rule])).toEqual([
      ['mcp_wary_lookup', 'mcp.ask'],
      ['mcp_wary_echo', 'mcp.ask'],
    ]);
    expect(toolResults(asking.sent(2))).toEqual(['value of k', 'echo: x']);

    const off = await start([call('mcp_test_delete_file', { path: 'z' }), { text: 'done' }], { extra: { approvals: { mode: 'off' } } });
    await off.session.submit('go');
    expect(off.questions).toEqual([]);
    expect(toolResults(off.sent(1))).toEqual(['deleted z']);
  });
});
