import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerBuiltinTools } from './builtins.ts';
import { planPatch } from './patch.ts';
import { TOOL_ERROR_PREFIX, ToolRegistry } from './registry.ts';
import { testContext } from './toolTestContext.ts';
import type { ToolContext } from './types.ts';

const registry = new ToolRegistry();
registerBuiltinTools(registry);

function approval(name: string, args: Record<string, unknown>, c: ToolContext) {
  const prepared = registry.prepare(name, JSON.stringify(args));
  if (!prepared.ok) throw new Error(prepared.outcome.result);
  return prepared.tool.approval!(prepared.args, c);
}

describe('write_file', () => {
  it('creates a file with its parent directories; the approval diff is computed first, without writing', async () => {
    const c = testContext();
    const args = { path: 'src/new/hello.txt', content: 'hello\nworld\n' };
    const file = path.join(c.cwd, 'src/new/hello.txt');
    const subject = approval('write_file', args, c);
    expect(subject).toEqual({
      kind: 'write',
      toolName: 'write_file',
      path: file,
      diff: '--- a/src/new/hello.txt\n+++ b/src/new/hello.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n',
    });
    expect(fs.existsSync(file)).toBe(false);
    const out = await registry.run('write_file', JSON.stringify(args), c);
    expect(out).toEqual({ result: 'Created src/new/hello.txt (12 bytes, 2 lines).', inlineDiff: subject!.kind === 'write' ? subject!.diff : '' });
    expect(fs.readFileSync(file, 'utf8')).toBe('hello\nworld\n');
  });

  it('diffs an update against the current content', async () => {
    const c = testContext();
    fs.writeFileSync(path.join(c.cwd, 'a.txt'), 'one\ntwo\nthree\n');
    const out = await registry.run('write_file', '{"path":"a.txt","content":"one\\n2\\nthree\\n"}', c);
    expect(out.result).toBe('Updated a.txt (12 bytes, 3 lines).');
    expect(out.inlineDiff).toBe('--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n');
  });

  it('refuses to write over a directory', async () => {
    const c = testContext();
    fs.mkdirSync(path.join(c.cwd, 'dir'));
    expect(approval('write_file', { path: 'dir', content: 'x' }, c)).toBeNull();
    expect((await registry.run('write_file', '{"path":"dir","content":"x"}', c)).error).toMatch(/dir is a directory, not a file/);
  });
});

describe('patch', () => {
  const source = 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n';

  function setup() {
    const c = testContext();
    fs.writeFileSync(path.join(c.cwd, 'x.ts'), source);
    return c;
  }

  it('replaces one exact match and returns the unified diff; approval shows the same diff before writing', async () => {
    const c = setup();
    const args = { path: 'x.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' };
    const diff = '--- a/x.ts\n+++ b/x.ts\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n const a2 = 1;\n';
    expect(approval('patch', args, c)).toEqual({ kind: 'write', toolName: 'patch', path: path.join(c.cwd, 'x.ts'), diff });
    expect(fs.readFileSync(path.join(c.cwd, 'x.ts'), 'utf8')).toBe(source);
    expect(await registry.run('patch', JSON.stringify(args), c)).toEqual({ result: `Replaced 1 occurrence in x.ts.\n${diff}`, inlineDiff: diff });
    expect(fs.readFileSync(path.join(c.cwd, 'x.ts'), 'utf8')).toBe(source.replace('2;', '3;'));
  });

  it('fails clearly on zero matches and suggests re-reading the file', async () => {
    const c = setup();
    const out = await registry.run('patch', '{"path":"x.ts","old_string":"const c","new_string":"let c"}', c);
    expect(out.result.startsWith(TOOL_ERROR_PREFIX)).toBe(true);
    expect(out.error).toBe(
      'old_string was not found in x.ts. The file may have changed, or whitespace or indentation differs: re-read the file with read_file and copy the exact text.',
    );
    expect(approval('patch', { path: 'x.ts', old_string: 'const c', new_string: 'let c' }, c)).toBeNull();
  });

  it('refuses several matches without replace_all, saying how many and on which lines', async () => {
    const c = setup();
    const out = await registry.run('patch', '{"path":"x.ts","old_string":" = 1;","new_string":" = 9;"}', c);
    expect(out.error).toBe(
      'old_string matches 2 places in x.ts (lines 1, 3). Include more surrounding text to make it unique, or pass replace_all: true to replace every one.',
    );
    expect(fs.readFileSync(path.join(c.cwd, 'x.ts'), 'utf8')).toBe(source);
  });

  it('replaces every match with replace_all, keeping "$" in the new text literal', async () => {
    const c = setup();
    const out = await registry.run('patch', '{"path":"x.ts","old_string":" = 1;","new_string":" = $&;","replace_all":"true"}', c);
    expect(out.result.startsWith('Replaced 2 occurrences in x.ts.')).toBe(true);
    expect(fs.readFileSync(path.join(c.cwd, 'x.ts'), 'utf8')).toBe('const a = $&;\nconst b = 2;\nconst a2 = $&;\n');
  });

  it.each([
    ['', 'x', /must not be empty/],
    ['same', 'same', /nothing would change/],
  ])('rejects old_string %j → %j', (oldString, newString, message) => {
    const plan = planPatch('f', 'same text', oldString, newString, false);
    expect(plan.ok ? '' : plan.error).toMatch(message);
  });

  it('says to use write_file for a file that does not exist', async () => {
    const out = await registry.run('patch', '{"path":"nope.ts","old_string":"a","new_string":"b"}', testContext());
    expect(out.error).toMatch(/No such file: .*nope\.ts\. To create a file use write_file\./);
  });
});
