import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerBuiltinCommands } from './builtin/index.ts';
import { CommandRegistry } from './commandRegistry.ts';
import { completePath, completeSlash } from './completion.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const registry = new CommandRegistry();
registerBuiltinCommands(registry);
registry.register({ name: 'mycmd', description: 'My plugin command', source: 'myplugin', handler: () => ({}) });
const catalog = registry.catalog();
const texts = (text: string) => completeSlash(text, catalog).items.map((i) => i.text);

describe('completeSlash', () => {
  it('puts prefix hits first', () => {
    expect(texts('/my')[0]).toBe('/mycmd');
    expect(texts('/st').slice(0, 2)).toEqual(['/status', '/stop']);
    expect(texts('/he')[0]).toBe('/help');
  });

  it('then subsequence hits, scored', () => {
    // "rp" is no prefix; reload-plugins has r…p at a word start.
    expect(texts('/rp')).toContain('/reload-plugins');
    expect(texts('/sts')).toContain('/status');
    expect(texts('/xyz')).toEqual([]);
  });

  it('completes aliases to the alias, showing the command it stands for', () => {
    const result = completeSlash('/fo', catalog);
    expect(result.items[0]).toEqual({
      text: '/fork',
      display: '/fork → /branch',
      meta: 'Branch the current session into a new one',
    });
    expect(texts('/compa')[0]).toBe('/compact');
    expect(texts('/comp')).toEqual(['/compress']);
  });

  it('lists every command for a bare slash, by name, with the description as meta', () => {
    const result = completeSlash('/', catalog);
    expect(result.items).toHaveLength(catalog.length);
    expect(result.items[0]).toEqual({ text: '/approvals', display: '/approvals', meta: catalog[0].description });
  });

  it('replaces from the slash, and offers nothing once arguments are typed', () => {
    expect(completeSlash('  /sta', catalog).replace_from).toBe(2);
    expect(completeSlash('/model gp', catalog)).toEqual({ items: [], replace_from: 9 });
    expect(completeSlash('hello', catalog).items).toEqual([]);
  });
});

describe('completePath', () => {
  let dir: string;
  beforeAll(async () => {
    dir = tempDir('hermes-complete-');
    await mkdir(path.join(dir, 'src'));
    await mkdir(path.join(dir, 'scripts'));
    await writeFile(path.join(dir, 'src', 'index.ts'), '');
    await writeFile(path.join(dir, 'setup.md'), '');
    await writeFile(path.join(dir, 'README.md'), '');
    await writeFile(path.join(dir, '.env'), '');
    await mkdir(path.join(dir, '.hermes'));
    await symlink(path.join(dir, 'src'), path.join(dir, 'srclink'));
  });

  it('lists matching files and folders, folders with a trailing slash', async () => {
    const result = await completePath('s', dir);
    expect(result.replace_from).toBe(0);
    expect(result.items).toEqual([
      { text: 'scripts/', display: 'scripts/', meta: 'folder' },
      { text: 'setup.md', display: 'setup.md', meta: 'file' },
      { text: 'src/', display: 'src/', meta: 'folder' },
      { text: 'srclink/', display: 'srclink/', meta: 'folder' },
    ]);
  });

  it('descends into folders and keeps what was typed before the name', async () => {
    expect((await completePath('./src/', dir)).items.map((i) => i.text)).toEqual(['./src/index.ts']);
    expect((await completePath('@src/in', dir)).items.map((i) => i.text)).toEqual(['@src/index.ts']);
    expect((await completePath(`${dir}/READ`, '/')).items.map((i) => i.text)).toEqual([`${dir}/README.md`]);
  });

  it('shows hidden entries only when the name typed starts with a dot', async () => {
    expect((await completePath('', dir)).items.map((i) => i.text)).not.toContain('.env');
    expect((await completePath('./', dir)).items.map((i) => i.text)).not.toContain('./.env');
    expect((await completePath('.', dir)).items.map((i) => i.text)).toEqual(['.env', '.hermes/']);
  });

  it('expands ~ to the home folder', async () => {
    expect((await completePath('~/sr', '/', { home: dir })).items.map((i) => i.text)).toEqual(['~/src/', '~/srclink/']);
    expect((await completePath('~', '/', { home: dir })).items.map((i) => i.text)).toContain('~/README.md');
  });

  it('caps the list, and gives nothing for a missing folder', async () => {
    expect((await completePath('', dir, { limit: 2 })).items).toHaveLength(2);
    expect(await completePath('nope/x', dir)).toEqual({ items: [], replace_from: 0 });
    expect(await completePath('setup.md/x', dir)).toEqual({ items: [], replace_from: 0 });
  });
});
