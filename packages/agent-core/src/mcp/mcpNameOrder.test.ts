/** Colliding MCP tool names depend on config order, never on which server connects first (F13). */
import { describe, expect, it, vi } from 'vitest';
import { testContext } from '../tools/toolTestContext.ts';
import type { McpManager } from './mcpManager.ts';
import { startedManager, stdioServerConfig } from './testServerConfigs.ts';

const toolsOf = (manager: McpManager, name: string) => manager.statuses().find((s) => s.name === name)!.tools;

/**
 * Servers `t` (tool add_numbers) and `t_add` (given a tool `numbers` at run time): both are
 * mcp_t_add_numbers. `first` connects (and, for t_add, gains `numbers`) before the other is enabled.
 */
async function namesWhenFirst(first: 't' | 't_add'): Promise<Record<string, string[]>> {
  const config = (enabled: { t: boolean; t_add: boolean }) => [stdioServerConfig('t', undefined, { enabled: enabled.t }), stdioServerConfig('t_add', undefined, { enabled: enabled.t_add })];
  const { manager, registry } = startedManager(config({ t: first === 't', t_add: first === 't_add' }));
  await manager.whenDiscovered();
  const addNumbersTool = async () => {
    const adder = toolsOf(manager, 't_add').find((name) => name.startsWith('mcp_t_add_add_tool'))!;
    expect((await registry.run(adder, JSON.stringify({ name: 'numbers' }), testContext())).result).toBe('added numbers');
    await vi.waitFor(() => expect(toolsOf(manager, 't_add').some((name) => name.startsWith('mcp_t_add_numbers'))).toBe(true), { timeout: 10_000, interval: 50 });
  };
  if (first === 't_add') await addNumbersTool();
  await manager.reload(config({ t: true, t_add: true }));
  if (first === 't') await addNumbersTool();
  const names = { t: [...toolsOf(manager, 't')].sort(), t_add: [...toolsOf(manager, 't_add')].sort() };
  await manager.close();
  return names;
}

describe('MCP tool names of colliding servers', () => {
  it('the same config gives the same names whichever server connects first; the earlier-configured server keeps the plain name', async () => {
    const tFirst = await namesWhenFirst('t');
    const tAddFirst = await namesWhenFirst('t_add');
    expect(tAddFirst).toEqual(tFirst);
    expect(tFirst.t).toContain('mcp_t_add_numbers');
    expect(tFirst.t_add).not.toContain('mcp_t_add_numbers');
    expect(tFirst.t_add).toContainEqual(expect.stringMatching(/^mcp_t_add_numbers_[0-9a-f]{8}$/));
    expect(new Set([...tFirst.t, ...tFirst.t_add]).size).toBe(tFirst.t.length + tFirst.t_add.length);
  });
});
