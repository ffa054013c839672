import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoScript } from './demo.ts';
import { ScriptError, loadScript, validateScript } from './script.ts';
import { startModelServer } from './server.ts';
import { tempDir } from '../testing/tempDirs.ts';

const dir = tempDir('model-server-script-');
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('script validation', () => {
  it('names the turn and the field', () => {
    const script = {
      turns: [{ text: 'a' }, { text: 'b' }, { text: 'c' }, { tool_calls: [{ name: 42, arguments: {} }] }],
    };
    expect(() => validateScript(script)).toThrow(ScriptError);
    expect(() => validateScript(script)).toThrow('turn 3: `tool_calls[0].name` must be a string');
  });

  it.each([
    [{ turns: [] }, '`turns` must be a non-empty list'],
    [{ turns: [{ text: 'a', chunk_sise: 3 }] }, 'turn 0: unknown field `chunk_sise`'],
    [{ turns: [{ error: { status: 200 } }] }, 'turn 0: `error.status` must be an HTTP error status'],
    [{ turns: [{ error: { status: 500 }, text: 'x' }] }, 'turn 0: `error` cannot be combined with `text`'],
    [{ turns: [{ text: 'ab', chunks: ['a', 'c'] }] }, 'turn 0: `chunks` must concatenate to `text`'],
    [{ turns: [{ finish_reason: 'done' }] }, 'turn 0: `finish_reason` must be one of'],
    [{ turns: [{ tool_calls: [{ name: 'x', arguments: [1] }] }] }, 'turn 0: `tool_calls[0].arguments` must be a mapping or a string'],
    [{ turns: [{ usage: { prompt_tokens: 1 } }] }, 'turn 0: `usage.completion_tokens` must be a non-negative integer'],
  ])('rejects %j', (script, message) => {
    expect(() => validateScript(script)).toThrow(message);
  });

  it('rejects a bad script passed to startModelServer before listening', async () => {
    await expect(startModelServer({ turns: [{ delay_ms: -1 }] })).rejects.toThrow('turn 0: `delay_ms` must be a non-negative number');
  });

  it('accepts the demo script', () => {
    const script = validateScript(demoScript('/tmp/notes.md'));
    expect(script.loop).toBe(true);
    expect(script.turns[0].tool_calls?.[0]).toMatchObject({ name: 'read_file', arguments: { path: '/tmp/notes.md' } });
  });
});

describe('loading script files', () => {
  it('loads YAML', () => {
    const path = file('ok.yaml', 'model: m\nloop: true\nturns:\n  - text: hello\n    chunk_size: 2\n  - tool_calls:\n      - name: ls\n        arguments: { dir: . }\n');
    expect(loadScript(path)).toEqual({
      model: 'm',
      loop: true,
      turns: [{ text: 'hello', chunk_size: 2 }, { tool_calls: [{ name: 'ls', arguments: { dir: '.' } }] }],
    });
  });

  it('loads JSON', () => {
    const path = file('ok.json', JSON.stringify({ turns: [{ text: 'hi' }] }));
    expect(loadScript(path).turns[0].text).toBe('hi');
  });

  it('prefixes errors with the file name', () => {
    const path = file('bad.yaml', 'turns:\n  - text: 5\n');
    expect(() => loadScript(path)).toThrow(`${path}: turn 0: \`text\` must be a string`);
  });
});
