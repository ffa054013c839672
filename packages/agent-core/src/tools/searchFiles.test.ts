import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerBuiltinTools } from './builtins.ts';
import { ToolRegistry } from './registry.ts';
import { tempDir, testContext } from './toolTestContext.ts';

const registry = new ToolRegistry();
registerBuiltinTools(registry);

/** A small repository: ignored build output and logs, a nested .gitignore with a re-include. */
const repo = tempDir('search');
const files: Record<string, string | Buffer> = {
  '.gitignore': 'dist/\n*.log\n',
  'src/app.ts': 'export const needle = 1;\nconst other = 2;\n',
  'src/util.ts': 'function needle() {}\n',
  'src/docs/readme.md': 'the needle in docs\n',
  'src/docs/.gitignore': '*.md\n!readme.md\nsecret.md\n',
  'src/docs/secret.md': 'needle secret\n',
  'src/docs/other.md': 'needle other\n',
  'dist/app.js': 'needle built\n',
  'debug.log': 'needle log\n',
  'node_modules/pkg/index.js': 'needle dep\n',
  'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65]),
};
for (const [rel, content] of Object.entries(files)) {
  fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
  fs.writeFileSync(path.join(repo, rel), content);
}
fs.mkdirSync(path.join(repo, '.git'));
fs.writeFileSync(path.join(repo, '.git', 'config'), 'needle in git\n');

const search = async (args: Record<string, unknown>, cwd = repo) => (await registry.run('search_files', JSON.stringify(args), testContext({ cwd }))).result;

describe('search_files', () => {
  it('finds content with line numbers, respecting .gitignore files and skipping .git, node_modules and binaries', async () => {
    expect(await search({ pattern: 'needle' })).toBe(
      ['src/app.ts:1: export const needle = 1;', 'src/docs/readme.md:1: the needle in docs', 'src/util.ts:1: function needle() {}'].join('\n'),
    );
  });

  it('applies the repository .gitignore when searching a subdirectory', async () => {
    fs.mkdirSync(path.join(repo, 'src/dist'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'src/dist/out.js'), 'needle\n');
    try {
      expect(await search({ pattern: 'needle', path: 'src' })).not.toContain('out.js');
      expect(await search({ pattern: 'needle' }, path.join(repo, 'src'))).toBe(
        ['app.ts:1: export const needle = 1;', 'docs/readme.md:1: the needle in docs', 'util.ts:1: function needle() {}'].join('\n'),
      );
    } finally {
      fs.rmSync(path.join(repo, 'src/dist'), { recursive: true });
    }
  });

  it('restricts content search with file_glob and caps the results with a note', async () => {
    expect(await search({ pattern: 'needle', file_glob: '*.ts' })).toBe('src/app.ts:1: export const needle = 1;\nsrc/util.ts:1: function needle() {}');
    expect(await search({ pattern: 'needle|other', limit: 2 })).toBe(
      'src/app.ts:1: export const needle = 1;\nsrc/app.ts:2: const other = 2;\n' +
        '[stopped at 2 matches; more exist. Narrow the pattern, path or file_glob, or raise limit (at most 1000)]',
    );
  });

  it('finds files by glob', async () => {
    expect(await search({ pattern: '*.ts', target: 'files' })).toBe('src/app.ts\nsrc/util.ts');
    expect(await search({ pattern: 'src/**/*.md', target: 'files' })).toBe('src/docs/readme.md');
    expect(await search({ pattern: '*.ts', target: 'files', limit: 1 })).toMatch(/^src\/app\.ts\n\[stopped at 1 files; more exist/);
    expect(await search({ pattern: '*.rs', target: 'files' })).toBe('No files match "*.rs" in ..');
  });

  it('says so when nothing matches and when the pattern is not a valid regex', async () => {
    expect(await search({ pattern: 'haystack' })).toBe('No matches for /haystack/ in ..');
    expect(await search({ pattern: 'foo(' })).toMatch(/"pattern" is not a valid regular expression/);
  });

  it('stops when the turn is interrupted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('interrupted'));
    await expect(registry.run('search_files', '{"pattern":"needle"}', testContext({ cwd: repo, signal: controller.signal }))).rejects.toThrow('interrupted');
  });
});

describe('search_files and the home .env', () => {
  it('does not search $HERMES_HOME/.env, and says so; another .env is searched', async () => {
    const home = tempDir('search-home');
    fs.writeFileSync(path.join(home, '.env'), 'OPENAI_API_KEY=needle-in-secrets\n');
    fs.writeFileSync(path.join(home, 'notes.txt'), 'needle in notes\n');
    const result = (await registry.run('search_files', JSON.stringify({ pattern: 'needle' }), testContext({ cwd: home, home }))).result;
    expect(result).toContain('notes.txt:1: needle in notes');
    expect(result).not.toContain('needle-in-secrets');
    expect(result).toMatch(/\.env was not searched: it holds hermes's API keys/);
    const project = tempDir('search-project');
    fs.writeFileSync(path.join(project, '.env'), 'LOCAL=needle-local\n');
    expect((await registry.run('search_files', JSON.stringify({ pattern: 'needle' }), testContext({ cwd: project, home }))).result).toBe('.env:1: LOCAL=needle-local');
  });
});
