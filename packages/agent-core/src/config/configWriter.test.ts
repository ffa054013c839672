import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigWriteError, appendToConfigList, setConfigValue } from './configWriter.ts';
import { mountSmallDisk, smallDiskUnavailable } from '../../../../scripts/testing/smallDisk.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const tmpHome = () => tempDir('hermes-config-');
const read = (home: string) => fs.readFileSync(path.join(home, 'config.yaml'), 'utf8');

describe('appendToConfigList', () => {
  it('creates a private config.yaml holding the list when there is none', () => {
    const home = path.join(tmpHome(), 'nested');
    expect(appendToConfigList(home, 'command_allowlist', 'git force push')).toBe(true);
    expect(parse(read(home))).toEqual({ command_allowlist: ['git force push'] });
    expect(fs.statSync(path.join(home, 'config.yaml')).mode & 0o777).toBe(0o600);
  });

  it('keeps comments, other keys and their order, and appends to an existing list', () => {
    const home = tmpHome();
    const original = [
      '# my hermes settings',
      'model:',
      '  provider: openrouter # the cheap one',
      'command_allowlist:',
      '  - recursive delete # needed for builds',
      'approvals:',
      '  mode: manual',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(home, 'config.yaml'), original, { mode: 0o640 });
    appendToConfigList(home, 'command_allowlist', 'git force push');
    const text = read(home);
    expect(text).toContain('# my hermes settings');
    expect(text).toContain('provider: openrouter # the cheap one');
    expect(text).toContain('- recursive delete # needed for builds');
    expect(parse(text)).toEqual({
      model: { provider: 'openrouter' },
      command_allowlist: ['recursive delete', 'git force push'],
      approvals: { mode: 'manual' },
    });
    expect(Object.keys(parse(text))).toEqual(['model', 'command_allowlist', 'approvals']);
    expect(fs.statSync(path.join(home, 'config.yaml')).mode & 0o777).toBe(0o640);
  });

  it('adds the list to a file without one, and fills an empty `key:`', () => {
    const home = tmpHome();
    fs.writeFileSync(path.join(home, 'config.yaml'), 'agent:\n  max_turns: 10\ncommand_allowlist:\n');
    appendToConfigList(home, 'command_allowlist', 'dd');
    appendToConfigList(home, 'toolsets', 'terminal');
    expect(parse(read(home))).toEqual({ agent: { max_turns: 10 }, command_allowlist: ['dd'], toolsets: ['terminal'] });
  });

  it('does not add a duplicate', () => {
    const home = tmpHome();
    expect(appendToConfigList(home, 'command_allowlist', 'eval of a dynamic string')).toBe(true);
    const before = read(home);
    expect(appendToConfigList(home, 'command_allowlist', 'eval of a dynamic string')).toBe(false);
    expect(read(home)).toBe(before);
  });

  it('leaves an invalid file untouched and says where the problem is', () => {
    const home = tmpHome();
    const broken = 'model:\n  provider: [unclosed\ncommand_allowlist:\n  - x\n';
    fs.writeFileSync(path.join(home, 'config.yaml'), broken);
    expect(() => appendToConfigList(home, 'command_allowlist', 'y')).toThrow(ConfigWriteError);
    expect(() => appendToConfigList(home, 'command_allowlist', 'y')).toThrow(/config\.yaml line \d+: not valid YAML.*not changed/);
    expect(read(home)).toBe(broken);
    expect(fs.readdirSync(home)).toEqual(['config.yaml']);
  });

  it('refuses to replace a setting that is not a list', () => {
    const home = tmpHome();
    fs.writeFileSync(path.join(home, 'config.yaml'), 'command_allowlist: everything\n');
    expect(() => appendToConfigList(home, 'command_allowlist', 'dd')).toThrow(/`command_allowlist` must be a list/);
    expect(read(home)).toBe('command_allowlist: everything\n');
  });
});

describe('setConfigValue', () => {
  it('sets a dotted key, keeping comments and other settings, and removes it with undefined', async () => {
    const { setConfigValue } = await import('./configWriter.ts');
    const home = tempDir('hermes-setcfg-');
    fs.writeFileSync(path.join(home, 'config.yaml'), '# my settings\nmodel:\n  provider: openai # keep me\n');
    setConfigValue(home, 'plugins.disabled', ['noisy']);
    const text = fs.readFileSync(path.join(home, 'config.yaml'), 'utf8');
    expect(text).toContain('# my settings');
    expect(text).toContain('provider: openai # keep me');
    expect(text).toMatch(/plugins:\n\s+disabled:\n\s+- noisy/);
    setConfigValue(home, 'plugins.disabled', undefined);
    expect(fs.readFileSync(path.join(home, 'config.yaml'), 'utf8')).not.toContain('noisy');
  });
});

describe('a config.yaml hermes cannot write', () => {
  it.skipIf(smallDiskUnavailable() !== null)('on a read-only disk: names the file and the fix, and leaves it as it was', () => {
    const disk = mountSmallDisk(1024 * 1024);
    try {
      fs.writeFileSync(path.join(disk.dir, 'config.yaml'), 'approvals:\n  mode: manual\n');
      disk.makeReadOnly();
      const write = () => appendToConfigList(disk.dir, 'command_allowlist', 'x');
      expect(write).toThrow(ConfigWriteError);
      expect(write).toThrow(
        `hermes cannot write ${disk.dir}/config.yaml: ${disk.dir} is on a read-only file system. Fix: set HERMES_HOME to a folder on a writable disk. The file was not changed.`,
      );
      expect(read(disk.dir)).toBe('approvals:\n  mode: manual\n');
    } finally {
      disk.unmount();
    }
  });
});

describe('setConfigValue keeps the file as the user wrote it', () => {
  it('fills a section written with no value yet (`mcp_servers:`) with a mapping', () => {
    const home = tmpHome();
    fs.writeFileSync(path.join(home, 'config.yaml'), '# servers to come\nmcp_servers:\n');
    setConfigValue(home, 'mcp_servers.new', { command: 'echo' });
    expect(read(home)).toBe('# servers to come\nmcp_servers:\n  new:\n    command: echo\n');
  });

  it('keeps CRLF line endings, flow lists as written, long lines unfolded and a missing last newline', () => {
    const home = tmpHome();
    const long = 'a long description '.repeat(8).trim();
    const original = ['model:', '  default: gpt-4o', 'mcp_servers:', '  a:', '    command: npx', '    args: ["-y", "server"]', `    description: ${long}`, 'toolsets: [terminal, web]'].join('\r\n');
    fs.writeFileSync(path.join(home, 'config.yaml'), original);
    setConfigValue(home, 'mcp_servers.b', { command: 'node', args: ['b.js'] });
    const text = read(home);
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    expect(text).toBe(
      [...original.split('\r\n').slice(0, 7), '  b:', '    command: node', '    args:', '      - b.js', 'toolsets: [terminal, web]'].join('\r\n'),
    );
  });

  it('keeps a YAML merge key (`<<: *defaults`) as written', () => {
    const home = tmpHome();
    const original = 'defaults: &defaults\n  timeout: 30\nmcp_servers:\n  a:\n    <<: *defaults\n    command: echo\n';
    fs.writeFileSync(path.join(home, 'config.yaml'), original);
    setConfigValue(home, 'mcp_servers.b', { command: 'node' });
    expect(read(home)).toBe(`${original}  b:\n    command: node\n`);
    expect(parse(read(home), { merge: true }).mcp_servers.a).toEqual({ timeout: 30, command: 'echo' });
  });
});
