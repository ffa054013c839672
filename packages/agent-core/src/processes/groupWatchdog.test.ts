import { execFile, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GroupWatchdog } from './groupWatchdog.ts';
import { isAlive } from './processTestUtil.ts';
import { loadExeca, signalGroup, spawnShell } from './shellProcess.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const groups: number[] = [];
beforeAll(() => loadExeca());
afterEach(() => {
  for (const group of groups.splice(0)) signalGroup(group, 'SIGKILL');
});

/** A real process group (a shell and its `sleep`), as tools start them. */
function startGroup(command = 'sleep 30 & wait'): number {
  const child = spawnShell(command, os.tmpdir());
  child.catch(() => undefined);
  groups.push(child.pid!);
  return child.pid!;
}

const groupAlive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return isAlive(pgid);
  } catch {
    return false;
  }
};

describe('GroupWatchdog', () => {
  it('kills the registered groups once the pipe from its owner ends, then exits; groups it was told ended are left alone', async () => {
    const watchdog = new GroupWatchdog();
    const doomed = startGroup();
    const ended = startGroup();
    watchdog.register(doomed);
    watchdog.register(ended);
    watchdog.unregister(ended);
    const watchdogPid = watchdog.pid!;
    expect(isAlive(watchdogPid)).toBe(true);
    watchdog.close();
    await vi.waitFor(() => expect(groupAlive(doomed)).toBe(false), { timeout: 10_000, interval: 50 });
    await vi.waitFor(() => expect(isAlive(watchdogPid)).toBe(false), { timeout: 10_000, interval: 50 });
    expect(groupAlive(ended)).toBe(true);
  });

  it('a watchdog killed from outside is replaced, and the new one knows the groups still running', async () => {
    const problems: string[] = [];
    const watchdog = new GroupWatchdog((message) => problems.push(message));
    const doomed = startGroup();
    watchdog.register(doomed);
    const first = watchdog.pid!;
    process.kill(first, 'SIGKILL');
    const second = await vi.waitFor(() => {
      expect(watchdog.pid).toBeDefined();
      expect(watchdog.pid).not.toBe(first);
      return watchdog.pid!;
    }, { timeout: 10_000, interval: 50 });
    expect(problems).toEqual(['the process-group watchdog ended (SIGKILL); starting another']);
    expect(groupAlive(doomed)).toBe(true);
    watchdog.close();
    await vi.waitFor(() => expect(groupAlive(doomed)).toBe(false), { timeout: 10_000, interval: 50 });
    await vi.waitFor(() => expect(isAlive(second)).toBe(false), { timeout: 10_000, interval: 50 });
  });

  it('SIGKILLs a group that ignores SIGTERM', async () => {
    const watchdog = new GroupWatchdog();
    const stubborn = startGroup(`trap '' TERM; sleep 30 & wait`);
    watchdog.register(stubborn);
    watchdog.close();
    await vi.waitFor(() => expect(groupAlive(stubborn)).toBe(false), { timeout: 15_000, interval: 100 });
  });

  it('kills the groups of an owner that died while its pipe stays open (another process holds it)', async () => {
    // The owner registers a group, then hands the watchdog's pipe to a process of its own group that
    // outlives it: no end of pipe ever comes, only the watchdog's check that its owner lives can reap.
    const watchdog = pathToFileURL(path.join(here, 'groupWatchdog.ts')).href;
    const owner = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', `import { spawn } from 'node:child_process';
import { GroupWatchdog } from ${JSON.stringify(watchdog)};
const tool = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
const dog = new GroupWatchdog();
dog.register(tool.pid);
const holder = spawn('sleep', ['30'], { detached: true, stdio: ['ignore', dog.child.stdin, 'ignore'] });
process.stdout.write(tool.pid + ' ' + holder.pid + '\\n');
setInterval(() => {}, 1000);`],
      { stdio: ['ignore', 'pipe', 'inherit'], cwd: here },
    );
    const [tool, holder] = await new Promise<number[]>((resolve, reject) => {
      owner.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim().split(' ').map(Number)));
      owner.once('exit', (code) => reject(new Error(`the owner exited (${code}) before starting its processes`)));
    });
    groups.push(tool!, holder!);
    expect(groupAlive(tool!)).toBe(true);
    owner.kill('SIGKILL');
    await vi.waitFor(() => expect(groupAlive(tool!)).toBe(false), { timeout: 15_000, interval: 100 });
    // The pipe was still open all along: its holder lives.
    expect(groupAlive(holder!)).toBe(true);
  });

  it('kills the tool groups of a process that was killed with SIGKILL', async () => {
    // A real Node process that starts a tool command through spawnShell (as the terminal tool does),
    // prints its pid, and is then killed -9: nothing of it runs, only the watchdog can reap.
    const shellProcess = pathToFileURL(path.join(here, 'shellProcess.ts')).href;
    const owner = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', `import { loadExeca, spawnShell } from ${JSON.stringify(shellProcess)};
await loadExeca();
const child = spawnShell('sleep 30 & wait', ${JSON.stringify(os.tmpdir())});
process.stdout.write(child.pid + '\\n');
setInterval(() => {}, 1000);`],
      { stdio: ['ignore', 'pipe', 'inherit'], cwd: here },
    );
    const pgid = await new Promise<number>((resolve, reject) => {
      owner.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      owner.once('exit', (code) => reject(new Error(`the owner exited (${code}) before starting its command`)));
    });
    groups.push(pgid);
    expect(groupAlive(pgid)).toBe(true);
    owner.kill('SIGKILL');
    await vi.waitFor(() => expect(groupAlive(pgid)).toBe(false), { timeout: 15_000, interval: 100 });
  });
});
