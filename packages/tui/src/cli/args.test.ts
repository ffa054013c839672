import { describe, expect, it } from 'vitest';
import { HELP_TEXT, UsageError, parseCliArgs } from './args.ts';

describe('parseCliArgs', () => {
  it('reads the TUI options', () => {
    expect(parseCliArgs(['--tui', '--model', 'gpt-4o', '--provider', 'openai', '--base-url', 'http://h/v1'])).toMatchObject({
      tui: true,
      demo: false,
      model: 'gpt-4o',
      provider: 'openai',
      baseUrl: 'http://h/v1',
      positionals: [],
    });
  });

  it('reads the session flags: --resume/-r, --continue/-c, and the sessions command options', () => {
    expect(parseCliArgs(['--resume', 'Deploy notes'])).toMatchObject({ resume: 'Deploy notes', continueLatest: false });
    expect(parseCliArgs(['-r', 'abc123']).resume).toBe('abc123');
    expect(parseCliArgs(['-c']).continueLatest).toBe(true);
    expect(parseCliArgs(['--continue']).continueLatest).toBe(true);
    expect(parseCliArgs(['sessions', 'export', 'abc', '--format', 'json'])).toMatchObject({ positionals: ['sessions', 'export', 'abc'], format: 'json' });
    expect(parseCliArgs(['sessions', 'list', '--limit', '5']).limit).toBe('5');
    expect(parseCliArgs(['sessions', 'search', '的', '--all'])).toMatchObject({ positionals: ['sessions', 'search', '的'], all: true });
    expect(parseCliArgs(['sessions', 'search', '的']).all).toBe(false);
    expect(() => parseCliArgs(['--resume'])).toThrow(UsageError);
  });

  it('reads the approvals check options', () => {
    expect(parseCliArgs(['approvals', 'check', 'rm -rf ~', '--cwd', '/p'])).toMatchObject({ positionals: ['approvals', 'check', 'rm -rf ~'], cwd: '/p' });
    expect(parseCliArgs(['approvals', 'check', '--write', '/p/x'])).toMatchObject({ write: '/p/x' });
    expect(HELP_TEXT).toContain('hermes approvals check --write PATH');
  });

  it('reads hermes doctor [--online] (with model flags), and refuses --online elsewhere', () => {
    expect(parseCliArgs(['doctor'])).toMatchObject({ positionals: ['doctor'], online: false });
    expect(parseCliArgs(['doctor', '--online', '--base-url', 'http://h/v1'])).toMatchObject({ online: true, baseUrl: 'http://h/v1' });
    expect(() => parseCliArgs(['chat', '-q', 'hi', '--online'])).toThrow('--online does not apply to hermes chat.');
    expect(HELP_TEXT).toContain('hermes doctor [--online]');
  });

  it('reads --demo, --version and -h', () => {
    expect(parseCliArgs(['--demo']).demo).toBe(true);
    expect(parseCliArgs(['--version']).version).toBe(true);
    // Hermes's forms too: -V and `hermes version`.
    expect(parseCliArgs(['-V']).version).toBe(true);
    expect(parseCliArgs(['version'])).toMatchObject({ version: true, positionals: [] });
    expect(() => parseCliArgs(['version', 'x'])).toThrow(/hermes version takes no arguments/);
    expect(parseCliArgs(['-h']).help).toBe(true);
  });

  it('rejects unknown options with a message naming them', () => {
    expect(() => parseCliArgs(['--modle', 'x'])).toThrow(UsageError);
    expect(() => parseCliArgs(['--modle', 'x'])).toThrow(/--modle/);
  });

  it('refuses an option the command does not read, and stray words after chat -q', () => {
    expect(() => parseCliArgs(['sessions', 'list', '--json'])).toThrow('--json does not apply to hermes sessions.');
    expect(() => parseCliArgs(['chat', '-q', 'hi', '--write', 'x'])).toThrow('--write does not apply to hermes chat.');
    expect(() => parseCliArgs(['chat', '-q', 'hi', '--all'])).toThrow('--all does not apply to hermes chat.');
    expect(() => parseCliArgs(['-q', 'hi'])).toThrow(/--query does not apply to the TUI/);
    expect(() => parseCliArgs(['chat', '-q', 'hi', 'there'])).toThrow(/not as "there"/);
    expect(parseCliArgs(['chat', '-q', 'hi', '--resume', 'Deploy notes', '--json']).resume).toBe('Deploy notes');
    expect(parseCliArgs(['sessions', 'list', '--json', '--help']).help).toBe(true);
    // A plugin's command gets its own words and flags, even ones hermes does not know.
    expect(parseCliArgs(['my-plugin-cmd', 'sync', '--json', '--dry-run', '-n', '3']).positionals).toEqual(['my-plugin-cmd', 'sync', '--json', '--dry-run', '-n', '3']);
  });

  it('reads hermes mcp add: each --arg verbatim (a leading dash included), --env and --header repeated', () => {
    expect(parseCliArgs(['mcp', 'add', 'gh', '--command', 'npx', '--arg', '-y', '--arg', '@scope/server', '--env', 'GITHUB_TOKEN=${GITHUB_TOKEN}'])).toMatchObject({
      positionals: ['mcp', 'add', 'gh'],
      mcpServer: { command: 'npx', args: ['-y', '@scope/server'], env: ['GITHUB_TOKEN=${GITHUB_TOKEN}'], headers: [] },
    });
    expect(parseCliArgs(['mcp', 'add', 'web', '--url', 'https://h/mcp', '--header', 'A=1', '--header', 'B=2']).mcpServer).toEqual({
      command: undefined,
      args: [],
      env: [],
      url: 'https://h/mcp',
      headers: ['A=1', 'B=2'],
    });
    // Hermes's own form: the words after the command are its arguments; after --, even ones with a dash.
    expect(parseCliArgs(['mcp', 'add', 'fs', '--command', 'node', 'server.js']).positionals).toEqual(['mcp', 'add', 'fs', 'server.js']);
    expect(parseCliArgs(['mcp', 'add', 'fs', '--command', 'npx', '--env', 'A=1', '--', '-y', '@scope/server', '--root', '/tmp'])).toMatchObject({
      positionals: ['mcp', 'add', 'fs', '-y', '@scope/server', '--root', '/tmp'],
      mcpServer: { command: 'npx', env: ['A=1'] },
    });
    expect(() => parseCliArgs(['sessions', 'list', '--url', 'x'])).toThrow('--url does not apply to hermes sessions.');
    expect(() => parseCliArgs(['mcp', 'list', '--json'])).toThrow('--json does not apply to hermes mcp.');
    // Outside `hermes mcp`, --arg keeps parseArgs's own rule.
    expect(parseCliArgs(['chat', '-q', 'hi']).mcpServer).toBeUndefined();
  });

  it('documents every option in the help text', () => {
    for (const option of ['--tui', '--demo', '--model', '--provider', '--base-url', '--version', '--help']) {
      expect(HELP_TEXT).toContain(option);
    }
  });
});
