import { describe, expect, it, vi } from 'vitest';
import { testContext } from '../tools/toolTestContext.ts';
import { TOOL_ERROR_PREFIX, ToolRegistry } from '../tools/registry.ts';
import { registerBuiltinTools } from '../tools/builtins.ts';
import type { McpManager } from './mcpManager.ts';
import { startedManager, stdioServerConfig, untilManager } from './testServerConfigs.ts';

const statusOf = (manager: McpManager, name: string) => manager.statuses().find((s) => s.name === name)!;

describe('McpManager with the stdio test server', () => {
  it('registers each tool as mcp_<server>_<tool> with the server schema in toolset mcp-<server>, plus the resource and prompt wrappers', async () => {
    const { manager, registry } = startedManager([stdioServerConfig('test')]);
    await manager.whenDiscovered();
    const status = statusOf(manager, 'test');
    expect(status).toMatchObject({ status: 'connected', error: null, transport: 'stdio' });
    expect(status.tools).toEqual(expect.arrayContaining(['mcp_test_echo', 'mcp_test_add_numbers', 'mcp_test_list_resources', 'mcp_test_read_resource', 'mcp_test_list_prompts', 'mcp_test_get_prompt']));
    expect(status.tool_count).toBe(status.tools.length);
    const echo = registry.get('mcp_test_echo')!;
    expect(echo.toolset).toBe('mcp-test');
    expect(echo.parameters).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expect(registry.byToolset()['mcp-test']).toEqual(status.tools);
  });

  it('turns text, structured content, images, errors, resources and prompts into tool results', async () => {
    const { manager, registry } = startedManager([stdioServerConfig('test')]);
    await manager.whenDiscovered();
    const context = testContext();
    const run = (name: string, args: object) => registry.run(name, JSON.stringify(args), context);
    expect(await run('mcp_test_echo', { text: 'hi' })).toEqual({ result: 'echo: hi' });
    expect((await run('mcp_test_add_numbers', { a: 2, b: 3 })).result).toBe(JSON.stringify({ sum: 5 }, null, 2));
    const pixel = (await run('mcp_test_pixel', {})).result;
    expect(pixel).toContain('here is a pixel');
    expect(pixel).toMatch(/\[image \(image\/png, \d+ bytes\): images from MCP tools are not passed to the model\]/);
    const failed = await run('mcp_test_always_fails', {});
    expect(failed.error).toBe('this tool always fails: the disk is on fire');
    expect(failed.result).toBe(`${TOOL_ERROR_PREFIX} this tool always fails: the disk is on fire`);
    expect((await run('mcp_test_list_resources', {})).result).toContain('test://greeting — greeting (text/plain): A greeting');
    expect((await run('mcp_test_read_resource', { uri: 'test://greeting' })).result).toBe('hello from the test server');
    expect((await run('mcp_test_list_prompts', {})).result).toContain('review(code): Asks for a code review');
    expect((await run('mcp_test_get_prompt', { name: 'review', arguments: { code: 'x = 1' } })).result).toBe('[user]\nPlease review this code:\nx = 1');
  });

  it('clips a long result to the usual tool_output limits', async () => {
    const { manager, registry } = startedManager([stdioServerConfig('test')]);
    await manager.whenDiscovered();
    const context = testContext({ settings: { terminalTimeoutS: 10, maxBytes: 400, maxLines: 2_000 } });
    const outcome = await registry.run('mcp_test_echo', JSON.stringify({ text: 'x'.repeat(5_000) }), context);
    expect(Buffer.byteLength(outcome.result)).toBeLessThanOrEqual(400);
    expect(outcome.result).toMatch(/cut|omitted|truncated/i);
  });

  it('include wins over exclude; exclude alone drops the tools it names', async () => {
    const { manager } = startedManager([
      stdioServerConfig('inc', undefined, { tools: { include: ['echo', 'lookup'], exclude: ['echo'], resources: false, prompts: false } }),
      stdioServerConfig('exc', undefined, { tools: { exclude: ['echo', 'crash'], resources: true, prompts: false } }),
    ]);
    await manager.whenDiscovered();
    expect(statusOf(manager, 'inc').tools).toEqual(['mcp_inc_echo', 'mcp_inc_lookup']);
    const exc = statusOf(manager, 'exc').tools;
    expect(exc).not.toContain('mcp_exc_echo');
    expect(exc).not.toContain('mcp_exc_crash');
    expect(exc).toContain('mcp_exc_lookup');
    expect(exc).toContain('mcp_exc_read_resource');
    expect(exc).not.toContain('mcp_exc_get_prompt');
  });

  it('cancels a call that outlives the server timeout (at the server too) and says so; the server stays connected', async () => {
    const { manager, registry } = startedManager([stdioServerConfig('test', undefined, { timeoutS: 0.5 })]);
    await manager.whenDiscovered();
    const outcome = await registry.run('mcp_test_slow', JSON.stringify({ ms: 10_000 }), testContext());
    expect(outcome.error).toBe('mcp_test_slow did not answer within 0.5 s (mcp_servers.test.timeout); the call was cancelled.');
    expect(statusOf(manager, 'test').status).toBe('connected');
    // The server was told (notifications/cancelled) and stopped the call.
    await vi.waitFor(async () => expect((await registry.run('mcp_test_cancelled_calls', '{}', testContext())).result).toBe('1'), { timeout: 10_000, interval: 100 });
    expect((await registry.run('mcp_test_echo', '{"text":"still here"}', testContext())).result).toBe('echo: still here');
  });

  it('a server that crashes mid-call: the call fails saying why, its tools go, it is reported once, retried and back', async () => {
    const { manager, registry, logger } = startedManager([stdioServerConfig('test')]);
    await manager.whenDiscovered();
    const outcome = await registry.run('mcp_test_crash', '{}', testContext());
    expect(outcome.error).toContain('MCP server "test" failed during mcp_test_crash');
    expect(outcome.error).toContain('exited with code 7');
    expect(outcome.error).toContain('crash: exiting on purpose in the middle of a call');
    const down = statusOf(manager, 'test');
    expect(down.status).toBe('failed');
    expect(down.tool_count).toBe(0);
    expect(down.error).toContain('crash: exiting on purpose');
    expect(registry.get('mcp_test_echo')).toBeUndefined();
    // A later call of the same model response is told the server is down, not that the tool does not exist.
    expect((await registry.run('mcp_test_echo', '{"text":"x"}', testContext())).error).toBe(
      'MCP server "test" is down (the server process exited with code 7); it is being restarted — try again later',
    );
    expect(logger.lines.filter((line) => line.startsWith('warn') && line.includes('exited with code 7'))).toHaveLength(1);
    await untilManager(manager, () => statusOf(manager, 'test').status === 'connected', 'the server to be back');
    expect(logger.lines.some((line) => line.includes('mcp: test is back'))).toBe(true);
    expect((await registry.run('mcp_test_echo', '{"text":"again"}', testContext())).result).toBe('echo: again');
  });

  it('a server that never answers initialize fails after connect_timeout, naming it; nothing else is held up', async () => {
    const { manager, registry } = startedManager([stdioServerConfig('mute', '--never-initialize', { connectTimeoutS: 4 }), stdioServerConfig('good')]);
    await untilManager(manager, () => statusOf(manager, 'mute').status === 'failed' && statusOf(manager, 'good').status === 'connected', 'both to settle');
    const mute = statusOf(manager, 'mute');
    expect(mute.error).toContain('did not answer initialize within 4 s (mcp_servers.mute.connect_timeout)');
    expect(mute.error).toContain('test server starting');
    expect(registry.get('mcp_good_echo')).toBeDefined();
  });

  it('a server that exits at start is failed with the last lines of its stderr and the command', async () => {
    const { manager } = startedManager([stdioServerConfig('broken', '--fail-at-start')]);
    await manager.whenDiscovered();
    const status = statusOf(manager, 'broken');
    expect(status.status).toBe('failed');
    expect(status.error).toContain('the server process exited with code 3 before it finished initialize');
    expect(status.error).toContain('fatal: the test server was told to fail at start');
    expect(status.error).toContain('stdioServer.ts --fail-at-start');
  });

  it('a server failing the same way on every retry is logged once (its stderr, with a new pid each time, aside)', async () => {
    const { manager, logger } = startedManager([stdioServerConfig('broken', '--fail-at-start')], { retry: { firstMs: 50, maxMs: 100 } });
    let failures = 0;
    manager.onChange(() => failures++);
    await untilManager(manager, () => failures >= 3, 'three failed attempts');
    expect(logger.lines.filter((line) => line.includes('exited with code 3'))).toHaveLength(1);
  });

  it('a command that does not exist is a clear error', async () => {
    const { manager } = startedManager([stdioServerConfig('missing', undefined, { command: 'no-such-mcp-server-here', args: [] })]);
    await manager.whenDiscovered();
    expect(statusOf(manager, 'missing').error).toContain('`no-such-mcp-server-here` was not found: install it or give its full path in mcp_servers.missing.command');
  });

  it('notifications/tools/list_changed refreshes the registry and tells listeners', async () => {
    const { manager, registry } = startedManager([stdioServerConfig('test')]);
    await manager.whenDiscovered();
    let changes = 0;
    manager.onChange(() => changes++);
    expect((await registry.run('mcp_test_add_tool', '{"name":"fresh"}', testContext())).result).toBe('added fresh');
    await untilManager(manager, () => registry.get('mcp_test_fresh') !== undefined, 'the added tool');
    expect(changes).toBeGreaterThan(0);
    expect(statusOf(manager, 'test').tools).toContain('mcp_test_fresh');
    expect((await registry.run('mcp_test_fresh', '{}', testContext())).result).toBe('fresh says hi');
  });

  it('toolsets: hermes-cli (Hermes\'s default) offers MCP tools; a server\'s toolset is known while it is down', async () => {
    const registry = new ToolRegistry();
    registerBuiltinTools(registry);
    const { manager } = startedManager([stdioServerConfig('test'), stdioServerConfig('broken', '--fail-at-start')], { registry });
    await manager.whenDiscovered();
    expect(registry.enabledFor(['hermes-cli']).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['terminal', 'mcp_test_echo']));
    expect(registry.enabledFor(['file']).tools.map((t) => t.name)).not.toContain('mcp_test_echo');
    const selection = registry.enabledFor(['mcp-test', 'mcp-broken']);
    expect(selection.problems).toEqual([]);
    expect(selection.tools.map((t) => t.name)).toContain('mcp_test_echo');
    expect(selection.tools.every((t) => t.toolset === 'mcp-test')).toBe(true);
  });

  it('a line on stdout that is not JSON-RPC is logged; the server and the call go on', async () => {
    const { manager, registry, logger } = startedManager([stdioServerConfig('test')]);
    await manager.whenDiscovered();
    expect((await registry.run('mcp_test_stdout_noise', '{}', testContext())).result).toBe('noisy but fine');
    expect(logger.lines.some((line) => line.startsWith('warn mcp: test: the server wrote a line to stdout that is not a JSON-RPC message'))).toBe(true);
    expect(manager.statuses()[0]!.status).toBe('connected');
  });

  it('a disabled server is listed, never started', async () => {
    const { manager, registry } = startedManager([stdioServerConfig('off', undefined, { enabled: false })]);
    await manager.whenDiscovered();
    expect(statusOf(manager, 'off')).toMatchObject({ status: 'disabled', tool_count: 0, error: null });
    expect(registry.names().some((n) => n.startsWith('mcp_'))).toBe(false);
  });

  it('whenDiscovered gives up after its timeout while a server is still connecting', async () => {
    const { manager } = startedManager([stdioServerConfig('mute', '--never-initialize', { connectTimeoutS: 60 })]);
    await manager.whenDiscovered(200);
    expect(statusOf(manager, 'mute').status).toBe('connecting');
  });

  it('reload closes removed servers (their tools go) and connects new ones', async () => {
    const { manager, registry } = startedManager([stdioServerConfig('one')]);
    await manager.whenDiscovered();
    const statuses = await manager.reload([stdioServerConfig('two')]);
    expect(statuses.map((s) => [s.name, s.status])).toEqual([['two', 'connected']]);
    expect(registry.get('mcp_one_echo')).toBeUndefined();
    expect((await registry.run('mcp_one_echo', '{"text":"x"}', testContext())).error).toMatch(/^Unknown tool "mcp_one_echo"/);
    expect(registry.get('mcp_two_echo')).toBeDefined();
  });
});
