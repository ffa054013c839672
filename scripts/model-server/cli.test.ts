import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/tempDirs.ts';

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const dir = tempDir('model-server-cli-');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function run(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, exited, stderr: () => stderr };
}

async function firstLine(child: ChildProcess): Promise<string | undefined> {
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) return line;
  return undefined;
}

describe('model-server cli', () => {
  it('prints the listening line, serves the script, and exits cleanly on SIGTERM', async () => {
    const script = join(dir, 'script.yaml');
    writeFileSync(script, 'turns:\n  - text: from the cli\n');
    const { child, exited, stderr } = run(['--script', script]);
    const line = await firstLine(child);
    expect(line).toMatch(/^listening http:\/\/127\.0\.0\.1:\d+\/v1$/);

    const client = new OpenAI({ baseURL: line!.slice('listening '.length), apiKey: 'test', maxRetries: 0 });
    const res = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.choices[0].message.content).toBe('from the cli');
    expect(stderr()).toContain('POST /v1/chat/completions');

    child.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
  });

  it('serves the demo script with a read_file call for the given path', async () => {
    const { child } = run(['--demo', '/tmp/readme.md']);
    const baseURL = (await firstLine(child))!.slice('listening '.length);
    const client = new OpenAI({ baseURL, apiKey: 'test', maxRetries: 0 });
    const res = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    const call = res.choices[0].message.tool_calls?.[0];
    expect(call?.type === 'function' && call.function.name).toBe('read_file');
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ path: '/tmp/readme.md' });
  });

  it('exits 2 with the validation error on a bad script', async () => {
    const script = join(dir, 'bad.yaml');
    writeFileSync(script, 'turns:\n  - text: ok\n  - tool_calls:\n      - arguments: {}\n');
    const { exited, stderr } = run(['--script', script]);
    expect((await exited)[0]).toBe(2);
    expect(stderr()).toContain('turn 1: `tool_calls[0].name` must be a string');
  });
});
