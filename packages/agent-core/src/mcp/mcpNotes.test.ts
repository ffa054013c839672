/** What a connected server's status says beyond "connected, N tools": tools `toolsets` leaves out (F22), include/exclude typos (F19). */
import { describe, expect, it } from 'vitest';
import { startedManager, stdioServerConfig } from './testServerConfigs.ts';

describe('MCP server status notes', () => {
  it('a toolsets list without mcp-<server> or hermes-cli: the status says the tools are not offered and how to add them', async () => {
    let toolsets: string[] | undefined = ['terminal', 'file'];
    const { manager, registry } = startedManager([stdioServerConfig('docs')], { toolsets: () => toolsets });
    await manager.whenDiscovered();
    const status = manager.statuses()[0]!;
    expect(status).toMatchObject({ status: 'connected', error: null });
    expect(status.note).toBe('its tools are not offered to the model: `toolsets` in config.yaml leaves out mcp-docs; add mcp-docs (or hermes-cli, which includes every MCP server) to it');
    // The note matches what the model is offered.
    expect(registry.schemas(toolsets).some((schema) => JSON.stringify(schema).includes('mcp_docs_echo'))).toBe(false);
    for (const offered of [['terminal', 'mcp-docs'], ['hermes-cli'], undefined]) {
      toolsets = offered;
      expect(manager.statuses()[0]!.note).toBeUndefined();
      expect(registry.schemas(toolsets).some((schema) => JSON.stringify(schema).includes('mcp_docs_echo'))).toBe(true);
    }
  });

  it('tools.include naming no tool of the server (a typo): one warning, and a note in the status listing its tools', async () => {
    const { manager, logger } = startedManager([stdioServerConfig('typo', undefined, { tools: { include: ['ech0'], exclude: ['crahs', 'crash'], resources: false, prompts: false } })]);
    await manager.whenDiscovered();
    const status = manager.statuses()[0]!;
    expect(status).toMatchObject({ status: 'connected', tool_count: 0 });
    expect(status.note).toMatch(/^tools\.include names ech0, which the server does not list; tools\.exclude names crahs, which the server does not list \(its tools: .*\becho\b.*\)$/);
    const warnings = logger.lines.filter((line) => line.startsWith('warn') && line.includes('ech0'));
    expect(warnings).toEqual([`warn mcp: MCP server "typo": ${status.note}`]);
  });
});
