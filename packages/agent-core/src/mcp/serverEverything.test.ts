/** A real MCP server published on npm (`@modelcontextprotocol/server-everything`, a dev dependency) through McpManager, over stdio. */
import { describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER as EVERYTHING } from '../../../../scripts/mcp-servers/launch.ts';
import { testContext } from '../tools/toolTestContext.ts';
import { serverConfig, startedManager } from './testServerConfigs.ts';


describe('@modelcontextprotocol/server-everything', () => {
  it('connects, registers its tools, resources and prompts, and answers calls', async () => {
    const { manager, registry } = startedManager([serverConfig('everything', { command: process.execPath, args: [EVERYTHING, 'stdio'], connectTimeoutS: 30 })]);
    await manager.whenDiscovered();
    const status = manager.statuses()[0]!;
    expect(status).toMatchObject({ status: 'connected', error: null, transport: 'stdio' });
    expect(status.tools).toEqual(expect.arrayContaining(['mcp_everything_echo', 'mcp_everything_get-sum', 'mcp_everything_get-tiny-image', 'mcp_everything_list_resources', 'mcp_everything_get_prompt']));
    const sum = registry.get('mcp_everything_get-sum')!;
    expect(sum.readOnly).toBe(true);
    expect(sum.parameters).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } });
    const context = testContext();
    expect((await registry.run('mcp_everything_echo', '{"message":"hello everything"}', context)).result).toContain('hello everything');
    expect((await registry.run('mcp_everything_get-sum', '{"a":19,"b":23}', context)).result).toContain('42');
    expect((await registry.run('mcp_everything_get-tiny-image', '{}', context)).result).toMatch(/\[image \(image\/png, \d+ bytes\)/);
    const resources = (await registry.run('mcp_everything_list_resources', '{}', context)).result;
    const firstUri = resources.split('\n')[0]!.split(' ')[0]!;
    expect(firstUri).toMatch(/^\w+:\/\//);
    const read = await registry.run('mcp_everything_read_resource', JSON.stringify({ uri: firstUri }), context);
    expect(read.error).toBeUndefined();
    expect(read.result.length).toBeGreaterThan(0);
  });
});
