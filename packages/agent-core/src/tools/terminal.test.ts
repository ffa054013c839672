import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isAlive } from '../processes/processTestUtil.ts';
import { registerBuiltinTools } from './builtins.ts';
import { ToolRegistry } from './registry.ts';
import { testContext } from './toolTestContext.ts';
import type { ToolContext } from './types.ts';

const registry = new ToolRegistry();
registerBuiltinTools(registry);
const contexts: ToolContext[] = [];
function context(overrides: Partial<ToolContext> = {}) {
  const c = testContext(overrides);
  contexts.push(c);
  return c;
}
afterEach(() => {
  for (const c of contexts.splice(0)) c.processes.killAll();
});

const run = (args: Record<string, unknown>, c: ToolContext = context()) => registry.run('terminal', JSON.stringify(args), c);
const pidAfter = (label: string, text: string) => Number(new RegExp(`${label}:(\\d+)`).exec(text)![1]);

describe('terminal', () => {
  it('merges stderr into stdout in the order written and reports the exit code', async () => {
    const out = await run({ command: 'echo one; echo two >&2; echo three; exit 3' });
    expect(out).toEqual({ result: 'one\ntwo\nthree\n[exit code: 3]' });
  });

  it('runs in the working directory or in workdir, and says when workdir does not exist', async () => {
    const c = context();
    fs.mkdirSync(path.join(c.cwd, 'sub'));
    expect((await run({ command: 'pwd' }, c)).result).toBe(`${fs.realpathSync(c.cwd)}\n[exit code: 0]`);
    expect((await run({ command: 'pwd', workdir: 'sub' }, c)).result).toBe(`${fs.realpathSync(c.cwd)}/sub\n[exit code: 0]`);
    expect((await run({ command: 'pwd', workdir: 'nope' }, c)).error).toMatch(/workdir .*nope is not an existing directory/);
    const gone = context({ cwd: path.join(c.cwd, 'deleted') });
    expect((await run({ command: 'pwd', background: true }, gone)).error).toMatch(/The working directory .*deleted is not an existing directory/);
  });

  it('reports a command that is not found, and a command with no output', async () => {
    expect((await run({ command: 'definitely-not-a-command-xyz' })).result).toMatch(/command not found\n\[exit code: 127\]$/);
    expect((await run({ command: 'true' })).result).toBe('(no output)\n[exit code: 0]');
  });

  it('keeps the head and tail of long output with a note saying how much was cut', async () => {
    const c = context();
    c.settings = { ...c.settings, maxLines: 10 };
    const out = (await run({ command: 'seq 1 5000' }, c)).result;
    // Ten lines in all: four from each end, the note and the exit code.
    expect(out.split('\n')).toHaveLength(10);
    expect(out.startsWith('1\n2\n3\n4\n[… output truncated: 4992 lines')).toBe(true);
    expect(out.endsWith('4997\n4998\n4999\n5000\n[exit code: 0]')).toBe(true);
  });

  it('kills the whole process tree on timeout and keeps what was printed', async () => {
    const out = (
      await run({ command: 'sleep 300 >/dev/null 2>&1 & echo "grandchild:$!"; echo started; sleep 300', timeout: 0.5 })
    ).result;
    expect(out).toMatch(/^grandchild:\d+\nstarted\n\[timed out after 0.5 s: the command and the processes it started were killed/);
    await vi.waitFor(() => expect(isAlive(pidAfter('grandchild', out))).toBe(false));
  });

  it('stops on the abort signal, keeps the partial output and streams progress', async () => {
    const controller = new AbortController();
    const previews: string[] = [];
    const c = context({
      signal: controller.signal,
      progress: (preview) => {
        previews.push(preview);
        if (preview.includes('ready')) controller.abort();
      },
    });
    const out = (await run({ command: 'sleep 300 & echo "child:$!"; echo ready; sleep 300' }, c)).result;
    expect(out).toMatch(/^child:\d+\nready\n\[interrupted by the user: the command and the processes it started were killed/);
    expect(previews.at(-1)).toMatch(/child:\d+\nready$/);
    await vi.waitFor(() => expect(isAlive(pidAfter('child', out))).toBe(false));
  });

  it('stops background children left holding the output when the command exits', async () => {
    const out = (await run({ command: '(sleep 300; echo never) & echo "child:$!"; echo done' })).result;
    expect(out).toMatch(/^child:\d+\ndone\n\[exit code: 0\] \[the command left background processes holding its output; they were stopped/);
    await vi.waitFor(() => expect(isAlive(pidAfter('child', out))).toBe(false));
  });

  it('starts a background process and returns at once; the process tool lists, reads and kills it', async () => {
    const c = context();
    const started = (await run({ command: 'echo hello; sleep 300', background: 'true' }, c)).result;
    expect(started).toMatch(/^Started in the background as bg-1 \(pid \d+\)/);
    const proc = (args: Record<string, unknown>) => registry.run('process', JSON.stringify(args), c);
    expect((await proc({ action: 'list' })).result).toMatch(/^bg-1 {2}pid \d+ {2}running {2}echo hello; sleep 300$/);
    await vi.waitFor(async () => expect((await proc({ action: 'output', id: 'bg-1' })).result).toMatch(/\nhello$/));
    expect((await proc({ action: 'kill', id: 'bg-1' })).result).toBe('Killed bg-1 and its child processes.');
    await c.processes.waitForExit('bg-1');
    expect((await proc({ action: 'list' })).result).toMatch(/killed/);
    const other = context({ processes: c.processes, sessionId: 'someone-else' });
    expect((await registry.run('process', '{"action":"output","id":"bg-1"}', other)).error).toMatch(/No background process "bg-1" in this session/);
  });

  it('asks the approval gate about the command, with the directory it runs in', () => {
    const c = context();
    const prepared = registry.prepare('terminal', '{"command":"rm -rf build","workdir":"sub"}');
    if (!prepared.ok) throw new Error(prepared.outcome.result);
    expect(prepared.tool.approval!(prepared.args, c)).toEqual({ kind: 'command', toolName: 'terminal', command: 'rm -rf build', cwd: path.join(c.cwd, 'sub') });
  });
});
