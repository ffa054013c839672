import { describe, expect, it } from 'vitest';
import { callResultText } from './mcpResults.ts';
import { mcpToolName, mcpToolset, sanitizeName } from './toolNames.ts';

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe('MCP tool names', () => {
  it('mcp_<server>_<tool>, with characters providers refuse replaced', () => {
    expect(mcpToolName('github', 'create_issue', () => false)).toBe('mcp_github_create_issue');
    expect(mcpToolName('my server', 'files/read.v2', () => false)).toBe('mcp_my_server_files_read_v2');
    expect(mcpToolset('my.server')).toBe('mcp-my_server');
    expect(sanitizeName('')).toBe('_');
  });

  it('long names are cut to 64 characters with a stable hash, and different tools stay different', () => {
    const long = mcpToolName('a-very-long-server-name-for-testing', 'an_even_longer_tool_name_that_goes_on_and_on', () => false);
    expect(long).toMatch(NAME);
    expect(long).toHaveLength(64);
    expect(mcpToolName('a-very-long-server-name-for-testing', 'an_even_longer_tool_name_that_goes_on_and_on', () => false)).toBe(long);
    expect(mcpToolName('a-very-long-server-name-for-testing', 'an_even_longer_tool_name_that_goes_on_and_on_2', () => false)).not.toBe(long);
  });

  it('a name another tool holds gets the hash suffix instead', () => {
    // Server "a_b" tool "c" and server "a" tool "b_c" both sanitise to mcp_a_b_c.
    const first = mcpToolName('a_b', 'c', () => false);
    const second = mcpToolName('a', 'b_c', (name) => name === first);
    expect(first).toBe('mcp_a_b_c');
    expect(second).toMatch(/^mcp_a_b_c_[0-9a-f]{8}$/);
  });
});

describe('MCP results as text', () => {
  it('structured content the text already carries is not repeated; otherwise it is added as JSON', () => {
    expect(callResultText({ content: [{ type: 'text', text: '{"sum": 5}' }], structuredContent: { sum: 5 } })).toBe('{"sum": 5}');
    expect(callResultText({ content: [{ type: 'text', text: 'the sum' }], structuredContent: { sum: 5 } })).toBe('the sum\n\nstructured content:\n{\n  "sum": 5\n}');
  });

  it('links, audio and embedded resources are described; an empty result says so', () => {
    const text = callResultText({
      content: [
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'mem://x', text: 'inline text' } },
        { type: 'resource', resource: { uri: 'mem://y', blob: 'AAAAAA==', mimeType: 'application/zip' } },
      ],
    });
    expect(text.split('\n\n')).toEqual([
      '[resource link: file:///a.txt (a.txt)]',
      '[audio (audio/wav, 3 bytes): not passed to the model]',
      'inline text',
      '[binary resource mem://y (application/zip), 4 bytes: not shown]',
    ]);
    expect(callResultText({ content: [] })).toBe('(the tool returned no content)');
  });
});
