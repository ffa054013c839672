import fs from 'node:fs';
import type { ResultPromise } from 'execa';
import { GroupWatchdog } from './groupWatchdog.ts';
import { toolEnvironment } from '../secrets/toolEnvironment.ts';

/**
 * bash, not `shell: true` (/bin/sh, dash on Debian): models write bash (`[[ ]]`, arrays, `set -o
 * pipefail`, brace expansion). Not a login shell (`-l`): profiles are slow, may print, and may
 * change directory. /bin/sh only where bash is missing.
 */
const SHELL = ['/bin/bash', '/usr/bin/bash'].find((p) => fs.existsSync(p)) ?? '/bin/sh';

/**
 * execa (with its signal tables, ~240 kB of the backend's bundle and ~10 ms of CPU) loads with the
 * first command hermes runs, not at the backend's start (scripts/bench/startup.ts): await this
 * before spawnShell.
 */
let execaLoading: Promise<typeof import('execa')> | undefined;
let execaModule: typeof import('execa') | undefined;
export async function loadExeca(): Promise<typeof import('execa')> {
  execaModule ??= await (execaLoading ??= import('execa'));
  return execaModule;
}

/** Seconds between SIGTERM and SIGKILL when stopping a process group. */
const KILL_GRACE_MS = 2_000;

export type ShellProcess = ResultPromise<{ all: true; buffer: false; reject: false; detached: true; stdin: 'pipe' }>;

/**
 * The first words of every command hermes runs: the shell waits for hermes's go, a newline on stdin
 * written once the command's process group is registered with the watchdog (`release`), and exits if
 * stdin ends without it (hermes died in between, so nothing would kill the group). Without the gate, a
 * kill -9 between the spawn and the registration (on the first command that includes forking and
 * starting the watchdog) left the command running for good. On the command's first line, so the line
 * numbers in bash's errors do not move. After the go, stdin is /dev/null again, as it was before the
 * gate (the pipe is a socket, which `cat /dev/stdin` cannot open).
 * MCP servers cannot wait so (stdin is their protocol); a hermes that dies first leaves them EOF, on
 * which they end.
 */
export const AWAIT_GO = 'read -r _ || exit 1; exec </dev/null; ';

/** Process groups still running, killed if hermes itself exits so no command outlives it. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;
/** Kills the groups when hermes dies without running its exit hook (kill -9, out of memory). */
export const groupWatchdog = new GroupWatchdog();

function trackGroup(pid: number): void {
  liveGroups.add(pid);
  groupWatchdog.register(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of liveGroups) signalGroup(group, 'SIGKILL');
  });
}

/** Sends `signal` to every process of the group; false if the group is already gone. */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** SIGTERM to the whole group, SIGKILL to whatever is left after a grace period. */
export function killGroup(pid: number): boolean {
  const sent = signalGroup(pid, 'SIGTERM');
  if (sent) {
    const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
    timer.unref();
  }
  return sent;
}

/**
 * Starts `command` in its own process group (`detached`), so a timeout or an interrupt can kill
 * the command and everything it started. stderr is joined to stdout inside the shell (`exec 2>&1`)
 * so the two interleave exactly as written; merging two pipes in Node can reorder them.
 * stdin ends once the command may run (AWAIT_GO): a command waiting for input gets EOF instead of
 * hanging. `env` replaces hermes's environment (never merged with it, so provider keys stay out);
 * without it, provider keys are removed.
 */
export function spawnShell(command: string, cwd: string, env?: Record<string, string>): ShellProcess {
  if (!execaModule) throw new Error('spawnShell before loadExeca() settled');
  const child = execaModule.execa(SHELL, ['-c', `${AWAIT_GO}exec 2>&1\n${command}`], {
    cwd,
    all: true,
    buffer: false,
    reject: false,
    detached: true,
    stdin: 'pipe',
    env: commandEnvironment(env),
    extendEnv: false,
  });
  release(child);
  child.all.setEncoding('utf8');
  return child;
}

/**
 * The whole environment of a command hermes runs (pass it with `extendEnv: false`): `env` (the tool
 * environment from the runtime), else hermes's own minus provider keys; pagers off, since they would
 * wait for a key that never comes.
 */
export function commandEnvironment(env?: Record<string, string>): Record<string, string> {
  return { PAGER: 'cat', GIT_PAGER: 'cat', ...(env ?? toolEnvironment(process.env, { dotenvNames: [] })) };
}

/**
 * Lets a command spawned behind AWAIT_GO (with stdin a pipe) run: its group is registered first (libuv
 * writes to a pipe with room within the call, so the watchdog's line is in the kernel before the go),
 * then the go is written and stdin ended.
 */
export function release(child: { pid?: number | undefined; stdin: NodeJS.WritableStream | null; finally(done: () => void): unknown }): void {
  watchGroup(child);
  // The command may be gone already (spawn failed, killed): its stdin then fails with EPIPE, which is no news.
  child.stdin?.on('error', () => {});
  child.stdin?.end('\n');
}

/**
 * Makes a process started with `detached: true` (its own group) die with hermes, also on kill -9:
 * the group is killed by the exit hook and the watchdog until the child settles.
 */
export function watchGroup(child: { pid?: number | undefined; finally(done: () => void): unknown }): void {
  const pid = child.pid;
  if (pid === undefined) return;
  trackGroup(pid);
  // Settles once every process holding the output pipe is gone: then the group needs no watching.
  void child.finally(() => {
    liveGroups.delete(pid);
    groupWatchdog.unregister(pid);
  });
}
