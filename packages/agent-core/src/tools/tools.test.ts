import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileTool } from './readFile.ts';
import { TOOL_ERROR_PREFIX, ToolRegistry } from './registry.ts';
import { tempDir, testContext } from './toolTestContext.ts';

const dir = tempDir('tools');
fs.writeFileSync(path.join(dir, 'five.txt'), 'one\ntwo\nthree\nfour\nfive\n');
fs.writeFileSync(path.join(dir, 'blob.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01]));

function registry() {
  const r = new ToolRegistry();
  r.register(readFileTool);
  return r;
}
const ctx = () => testContext({ cwd: dir });

describe('read_file', () => {
  it('reads numbered lines relative to the working directory', async () => {
    expect(await registry().run('read_file', '{"path":"five.txt"}', ctx())).toEqual({ result: '1|one\n2|two\n3|three\n4|four\n5|five' });
  });

  it('reads a range and says how to read more; coerces numeric strings', async () => {
    const out = await registry().run('read_file', '{"path":"five.txt","offset":"2","limit":2}', ctx());
    expect(out.result).toBe('2|two\n3|three\n[lines 2-3 of 5; use offset to read more]');
  });

  it.each([
    ['{"path":"blob.bin"}', /looks like a binary file/],
    ['{"path":"missing.txt"}', /No such file: .*missing\.txt/],
    ['{"path":"."}', /is a directory/],
    ['{"path":"five.txt","offset":0}', /"offset" must be a whole number of 1 or more/],
    ['{"path":""}', /"path" must be a non-empty string/],
    ['{}', /read_file needs the argument "path"/],
  ])('turns %s into an error result the model can read', async (args, message) => {
    const out = await registry().run('read_file', args, ctx());
    expect(out.result.startsWith(TOOL_ERROR_PREFIX)).toBe(true);
    expect(out.error).toMatch(message);
  });
});

describe('ToolRegistry basics', () => {
  it('answers an unknown tool with the list of available tools', async () => {
    const out = await registry().run('write_file', '{}', ctx());
    expect(out.error).toBe('Unknown tool "write_file". Available tools: read_file.');
  });

  it('answers arguments that are not JSON with an error result, not a crash', async () => {
    const out = await registry().run('read_file', '{"path": "five', ctx());
    expect(out.error).toMatch(/not valid JSON/);
  });

  it('lists schemas and toolsets for the model and the UI', () => {
    const r = registry();
    expect(r.schemas()[0]!.function.name).toBe('read_file');
    expect(r.byToolset()).toEqual({ file: ['read_file'] });
    expect(r.preview('read_file', '{"path":"a/b.txt"}')).toBe('a/b.txt');
  });
});
