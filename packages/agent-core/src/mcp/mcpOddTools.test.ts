/** A server listing malformed or oversized tools keeps its other tools; the ones that cannot be offered are named once. */
import { describe, expect, it } from 'vitest';
import { testContext } from '../tools/toolTestContext.ts';
import { testMcpServer } from './mcpManager.ts';
import { MAX_DESCRIPTION_CHARS } from './mcpTools.ts';
import { startedManager, stdioServerConfig } from './testServerConfigs.ts';

describe('MCP tools a careless server lists', () => {
  it('keeps the server and its good tools; a schema without type is an object schema; the rest are skipped with one warning naming them', async () => {
    const { manager, registry, logger } = startedManager([stdioServerConfig('odd', '--odd-tools')]);
    await manager.whenDiscovered();
    const status = manager.statuses()[0]!;
    expect(status).toMatchObject({ status: 'connected', error: null });
    expect(status.tools).toEqual(['mcp_odd_echo', 'mcp_odd_notype', 'mcp_odd_longdesc']);
    expect(registry.get('mcp_odd_notype')!.parameters).toMatchObject({ type: 'object', properties: { n: { type: 'number' } } });
    expect((await registry.run('mcp_odd_notype', '{"n":1}', testContext())).result).toBe('called notype');

    const warnings = logger.lines.filter((line) => line.startsWith('warn') && line.includes('not offered'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('MCP server "odd": 3 tools are not offered to the model: ');
    expect(warnings[0]).toMatch(/stringtype \(inputSchema\.type: [^)]*object/);
    expect(warnings[0]).toMatch(/hugeschema \(its inputSchema is \d+ kB, over the 64 kB a tool may send with every request\)/);
    expect(warnings[0]).toContain('(a tool without a name) (name: ');
    expect(warnings[0]).not.toContain('"code"');
  });

  it('cuts a description over the cap, saying so', async () => {
    const { manager, registry } = startedManager([stdioServerConfig('odd', '--odd-tools')]);
    await manager.whenDiscovered();
    const description = registry.get('mcp_odd_longdesc')!.description;
    expect(description.length).toBeLessThan(MAX_DESCRIPTION_CHARS + 200);
    expect(description).toContain(`[description cut at ${MAX_DESCRIPTION_CHARS} characters]`);
  });

  it('hermes mcp test lists the tools that would be offered', async () => {
    const outcome = await testMcpServer(stdioServerConfig('odd', '--odd-tools'), {});
    expect(outcome).toMatchObject({ ok: true, tools: ['echo', 'notype', 'longdesc'] });
  });
});
