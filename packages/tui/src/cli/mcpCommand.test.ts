import { describe, expect, it } from 'vitest';
import { serverEntry, statusLine } from './mcpCommand.ts';

const none = { args: [], env: [], headers: [] };

describe('hermes mcp add: the entry written to config.yaml', () => {
  it('is Hermes\'s keys, values as written (a ${VAR} reference stays a reference)', () => {
    expect(serverEntry('gh', { ...none, command: 'npx', args: ['-y', 'pkg'], env: ['GITHUB_TOKEN=${GITHUB_TOKEN}', 'EMPTY=', 'EQ=a=b'] })).toEqual({
      command: 'npx',
      args: ['-y', 'pkg'],
      env: { GITHUB_TOKEN: '${GITHUB_TOKEN}', EMPTY: '', EQ: 'a=b' },
    });
    expect(serverEntry('web', { ...none, url: 'https://h/mcp', headers: ['Authorization=Bearer ${TOKEN}'] })).toEqual({
      url: 'https://h/mcp',
      headers: { Authorization: 'Bearer ${TOKEN}' },
    });
    expect(serverEntry('bare', { ...none, command: 'server' })).toEqual({ command: 'server' });
  });

  it('refuses what cannot be one server, as a usage error (exit 2) saying what to give', () => {
    const refused = (given: Parameters<typeof serverEntry>[1]) => {
      try {
        serverEntry('x', given);
      } catch (error) {
        return { message: (error as Error).message.split('\n')[0], code: (error as { code: number }).code };
      }
      return undefined;
    };
    expect(refused(none)).toEqual({ message: 'hermes mcp add x: give --command <cmd> (a stdio server) or --url <url> (an HTTP server)', code: 2 });
    expect(refused({ ...none, command: 'a', url: 'http://h' })?.message).toBe('hermes mcp add x: give --command or --url, not both');
    expect(refused({ ...none, command: 'a', headers: ['A=1'] })?.message).toMatch(/--header applies to --url servers/);
    expect(refused({ ...none, url: 'http://h', env: ['A=1'] })?.message).toMatch(/--arg and --env apply to --command servers/);
    expect(refused({ ...none, command: 'a', env: ['NOEQUALS'] })?.message).toBe(`--env takes NAME=VALUE (a name, "=", then the value; e.g. --env TOKEN='\${TOKEN}'); one --env given has no "="`);
    expect(refused({ ...none, command: 'a', env: ['=v'] })?.message).toMatch(/one --env given has no name before "="$/);
    // The refused value is never echoed: it is often the secret itself.
    const header = refused({ ...none, url: 'http://h', headers: ['Authorization: Bearer abc123'] });
    expect(header).toEqual({ message: expect.stringContaining('--header takes NAME=VALUE'), code: 2 });
    expect(header?.message).not.toContain('abc123');
    expect(refused({ ...none, command: 'a', env: ['A=1', 'A=2'] })?.message).toBe('--env A is given twice');
  });
});

describe('hermes mcp list: one line per server', () => {
  it('names status, tools, transport and target, the error of a failed one, and a note', () => {
    const base = { tool_count: 0, error: null, tools: [] };
    expect(statusLine({ ...base, name: 'fs', status: 'connected', tool_count: 3, transport: 'stdio', target: 'node fs.js', tools: ['a', 'b', 'c'] })).toBe(
      'fs\tconnected\ttools 3\tstdio node fs.js',
    );
    expect(statusLine({ ...base, name: 'web', status: 'failed', transport: 'http', target: 'http://h/mcp', error: 'connection refused\n  stderr: boom\n' })).toBe(
      'web\tfailed\ttools 0\thttp http://h/mcp\tconnection refused | stderr: boom',
    );
    const note = 'its tools are not offered to the model: `toolsets` in config.yaml leaves out mcp-fs; add mcp-fs (or hermes-cli, which includes every MCP server) to it';
    expect(statusLine({ ...base, name: 'fs', status: 'connected', tool_count: 1, transport: 'stdio', target: 'node fs.js', tools: ['a'], note })).toBe(
      `fs\tconnected\ttools 1\tstdio node fs.js\tnote: ${note}`,
    );
  });

  it('never passes a server\'s escape sequences (clipboard write, title, clear screen) to the terminal', () => {
    const stderr = 'starting\x1b]52;c;cm0gLXJmIH4=\x07\x1b]0;pwned\x07\x1b[2J\tdone\n';
    const line = statusLine({ name: 'evil', status: 'failed', tool_count: 0, tools: [], transport: 'stdio', target: 'node evil.js', error: stderr });
    expect(line).toBe('evil\tfailed\ttools 0\tstdio node evil.js\tstarting done');
  });
});
