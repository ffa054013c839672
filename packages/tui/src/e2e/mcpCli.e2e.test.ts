/**
 * `hermes mcp add|list|test|remove` as a user runs them: the real bundle, a backend started per
 * command, a temp HERMES_HOME whose config.yaml has the user's comments, and a real stdio MCP server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { HERMES_BIN } from '../testing/ptyHarness.ts';
import { CLEAN_ENV } from '../testing/realBackend.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const USER_CONFIG = `# my hermes settings
approvals:
  mode: manual # asked every time

# servers I use every day
mcp_servers:
  # the notes server, kept off for now
  notes:
    command: notes-server
    enabled: false
`;

const mcp = (home: string, ...args: string[]) =>
  execa(process.execPath, [HERMES_BIN, 'mcp', ...args], {
    env: { ...CLEAN_ENV, HERMES_HOME: home, SECRET_FOR_TEST: 'sk-test-0123456789abcdefghij' },
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
  });

const config = (home: string) => fs.readFileSync(path.join(home, 'config.yaml'), 'utf8');

describe('hermes mcp', () => {
  it('add and remove edit config.yaml keeping its comments; a ${VAR} is stored as written and never printed', async () => {
    const home = tempDir('hermes-mcp-cli-');
    fs.writeFileSync(path.join(home, 'config.yaml'), USER_CONFIG);

    const added = await mcp(home, 'add', 'github', '--command', 'npx', '--arg', '-y', '--arg', '@modelcontextprotocol/server-github', '--env', 'GITHUB_TOKEN=${SECRET_FOR_TEST}');
    expect(added.exitCode, added.stderr).toBe(0);
    expect(added.stdout).toContain('Added MCP server github (stdio: npx; env: GITHUB_TOKEN) to config.yaml.');
    expect(added.stdout + added.stderr).not.toContain('SECRET_FOR_TEST');
    const text = config(home);
    for (const comment of ['# my hermes settings', '# asked every time', '# servers I use every day', '# the notes server, kept off for now']) expect(text).toContain(comment);
    expect(parse(text).mcp_servers).toEqual({
      notes: { command: 'notes-server', enabled: false },
      github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: '${SECRET_FOR_TEST}' } },
    });

    const again = await mcp(home, 'add', 'github', '--url', 'http://127.0.0.1:9/mcp');
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('config.yaml already has an MCP server named "github"');

    const removed = await mcp(home, 'remove', 'github');
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(removed.stdout).toContain('Removed MCP server github from config.yaml');
    expect(config(home)).toBe(USER_CONFIG);

    const unknown = await mcp(home, 'remove', 'github');
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('config.yaml has no MCP server named "github" (configured: notes)');
  });

  it('refuses bad usage with exit 2 and a message saying what to give', async () => {
    const home = tempDir('hermes-mcp-cli-');
    const cases: [string[], RegExp][] = [
      [['add', 'x'], /give --command <cmd> \(a stdio server\) or --url <url>/],
      [['add', 'x', '--command', 'a', '--url', 'http://h'], /give --command or --url, not both/],
      [['add', 'x', '--command', 'a', '--env', 'NOVALUE'], /--env takes NAME=VALUE, not "NOVALUE"/],
      [['remove'], /give exactly one server name/],
      [['list', '--command', 'a'], /apply to "hermes mcp add" only/],
      [['frob'], /unknown subcommand "frob"/],
      // Checked by the backend: a dot would split the config key, and tool names are mcp_<server>_<tool>.
      [['add', 'a.b', '--command', 'a'], /names an MCP server "a\.b": use 1 to 64 letters, digits, _ or -/],
      [['add', 'web', '--url', 'ftp://h/mcp'], /must be an http:\/\/ or https:\/\/ URL/],
    ];
    for (const [args, message] of cases) {
      const result = await mcp(home, ...args);
      expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    expect(fs.existsSync(path.join(home, 'config.yaml'))).toBe(false);
  });
});
