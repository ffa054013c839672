import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/loadConfig.ts';
import { homeWith } from '../testing/tempHome.ts';
import { MCP_DEFAULTS, parseMcpServers } from './mcpConfig.ts';

const load = (yaml: string) => loadConfig(homeWith({ 'config.yaml': yaml }));

describe('mcp_servers in config.yaml', () => {
  it('reads every Hermes key and ours, with defaults for what is not set', () => {
    const { config, problems } = load(`
mcp_discovery_timeout: 7
mcp_servers:
  github:
    command: npx
    args: ["-y", "@modelcontextprotocol/server-github", 42]
    env:
      GITHUB_PERSONAL_ACCESS_TOKEN: "\${GITHUB_TOKEN}"
      PORT: 8080
    cwd: /tmp
    enabled: false
    timeout: 30
    connect_timeout: 15
    tools:
      include: [create_issue]
      exclude: [delete_repo]
      resources: false
      prompts: "no"
    supports_parallel_tool_calls: true
    approval: ask
  remote:
    url: https://mcp.example.com/mcp
    headers:
      Authorization: "Bearer \${REMOTE_TOKEN}"
`);
    expect(problems).toEqual([]);
    expect(config.mcp_discovery_timeout).toBe(7);
    expect(config.mcp_servers).toEqual([
      {
        name: 'github',
        enabled: false,
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github', '42'],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}', PORT: '8080' },
        cwd: '/tmp',
        headers: {},
        timeoutS: 30,
        connectTimeoutS: 15,
        tools: { include: ['create_issue'], exclude: ['delete_repo'], resources: false, prompts: false },
        supportsParallelToolCalls: true,
        approval: 'ask',
      },
      {
        name: 'remote',
        enabled: true,
        transport: 'http',
        url: 'https://mcp.example.com/mcp',
        args: [],
        env: {},
        headers: { Authorization: 'Bearer ${REMOTE_TOKEN}' },
        timeoutS: MCP_DEFAULTS.timeoutS,
        connectTimeoutS: MCP_DEFAULTS.connectTimeoutS,
        tools: { resources: true, prompts: true },
        supportsParallelToolCalls: false,
        approval: 'auto',
      },
    ]);
  });

  it('defaults: 120 s per call, 60 s to connect, a few seconds of discovery; include may be a single name', () => {
    const { config } = load('mcp_servers:\n  fs:\n    command: mcp-fs\n    tools:\n      include: read_file\n');
    expect(config.mcp_servers[0]).toMatchObject({ timeoutS: 120, connectTimeoutS: 60, tools: { include: ['read_file'] } });
    expect(config.mcp_discovery_timeout).toBe(MCP_DEFAULTS.discoveryTimeoutS);
    expect(load('model: x\n').config.mcp_servers).toEqual([]);
  });

  it('unknown keys warn as unknown_key problems with their line; the server is still used', () => {
    const { config, problems } = load(['mcp_servers:', '  fs:', '    command: mcp-fs', '    transport_kind: stdio', '    tools:', '      inclde: [a]'].join('\n'));
    expect(config.mcp_servers.map((s) => s.name)).toEqual(['fs']);
    expect(problems).toEqual([
      expect.objectContaining({ kind: 'unknown_key', line: 4, message: expect.stringContaining('unknown key `mcp_servers.fs.transport_kind`') }),
      expect.objectContaining({ kind: 'unknown_key', line: 6, message: expect.stringContaining('unknown key `mcp_servers.fs.tools.inclde`') }),
    ]);
  });

  it("Hermes's own per-server keys hermes does not implement (sampling, auth) are listed as not implemented, not as typos", () => {
    const yaml = ['mcp_servers:', '  remote:', '    url: https://mcp.example.com/mcp', '    auth: oauth', '    sampling:', '      enabled: true', '    samplng: {}'].join('\n');
    const { config, problems, notImplemented } = load(yaml);
    expect(config.mcp_servers.map((s) => s.name)).toEqual(['remote']);
    expect(notImplemented).toEqual(['mcp_servers.remote.auth', 'mcp_servers.remote.sampling']);
    // A real typo is still one.
    expect(problems).toEqual([expect.objectContaining({ kind: 'unknown_key', message: expect.stringContaining('unknown key `mcp_servers.remote.samplng`') })]);
  });

  it('a server name the CLI refuses (empty, with spaces or punctuation) is a problem naming the rule; that server is not used', () => {
    const { config, problems } = load(['mcp_servers:', '  "":', '    command: a', '  "bad name!":', '    command: b', '  good-one_2:', '    command: c'].join('\n'));
    expect(config.mcp_servers.map((s) => s.name)).toEqual(['good-one_2']);
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^the MCP server name "" under `mcp_servers` must be 1 to 64 letters, digits, _ or - .*this server is not used$/),
      expect.stringContaining('the MCP server name "bad name!" under `mcp_servers` must be 1 to 64 letters, digits, _ or -'),
    ]);
    expect(problems.every((p) => p.kind === 'value')).toBe(true);
  });

  it('wrong types are value problems that say what to fix; the default applies', () => {
    const { config, problems } = load(
      [
        'mcp_discovery_timeout: soon',
        'mcp_servers:',
        '  fs:',
        '    command: mcp-fs',
        '    args: --verbose',
        '    timeout: -1',
        '    enabled: maybe',
        '    approval: sometimes',
        '    env: [A, B]',
        '    tools: all',
      ].join('\n'),
    );
    expect(config.mcp_discovery_timeout).toBe(MCP_DEFAULTS.discoveryTimeoutS);
    expect(config.mcp_servers[0]).toMatchObject({ args: [], timeoutS: 120, enabled: true, approval: 'auto', env: {}, tools: { resources: true, prompts: true } });
    const byLine = Object.fromEntries(problems.map((p) => [p.line, `${p.kind}: ${p.message}`]));
    expect(byLine).toEqual({
      1: 'value: `mcp_discovery_timeout` must be a number of seconds above 0 (found "soon"); the default 5 applies',
      5: 'value: `mcp_servers.fs.args` must be a list of strings (found "--verbose"); the server starts without arguments',
      6: 'value: `mcp_servers.fs.timeout` must be a number of seconds above 0 (found -1); the default 120 applies',
      7: 'value: `mcp_servers.fs.enabled` must be true or false (found "maybe"); true applies',
      8: 'value: `mcp_servers.fs.approval` must be ask (every call asks you) or auto (only destructive tools ask), found "sometimes"; auto applies',
      9: 'value: `mcp_servers.fs.env` must be a mapping of names to values (found ["A","B"]); it is ignored',
      10: 'value: `mcp_servers.fs.tools` must be a mapping (include, exclude, resources, prompts), found "all"; all the server\'s tools are used',
    });
  });

  it('a server needs exactly one of command and url, and a url must be http(s); such a server is left out', () => {
    const { config, problems } = load(
      ['mcp_servers:', '  none:', '    args: [x]', '  both:', '    command: a', '    url: http://b', '  ftp:', '    url: ftp://host/mcp', '  list: [1, 2]', '  ok:', '    url: http://127.0.0.1:9/mcp'].join('\n'),
    );
    expect(config.mcp_servers.map((s) => s.name)).toEqual(['ok']);
    expect(problems.map((p) => [p.line, p.message])).toEqual([
      [2, expect.stringContaining('`mcp_servers.none` needs `command` (a server hermes starts, with `args`) or `url`')],
      [6, expect.stringContaining('`mcp_servers.both` has both `command` and `url`')],
      [8, expect.stringContaining('`mcp_servers.ftp.url` must be an http:// or https:// URL')],
      [9, expect.stringContaining('`mcp_servers.list` must be a mapping with `command` (a local server) or `url`')],
    ]);
  });

  it('an env value that is not a string is named without echoing it (it may be a secret)', () => {
    const { problems } = load('mcp_servers:\n  fs:\n    command: x\n    env:\n      TOKEN: {nested: s3cr3t-value}\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toBe('`mcp_servers.fs.env` `TOKEN` must be a string (it is object); it is left out');
    expect(problems[0]!.message).not.toContain('s3cr3t');
  });

  it('`mcp_servers` that is not a mapping is one problem and no server', () => {
    const parsed = parseMcpServers({ mcp_servers: ['a'] }, '/home/config.yaml');
    expect(parsed.servers).toEqual([]);
    expect(parsed.problems).toEqual([expect.objectContaining({ file: '/home/config.yaml', kind: 'value', message: expect.stringContaining('`mcp_servers` must be a mapping of server names') })]);
  });
});
