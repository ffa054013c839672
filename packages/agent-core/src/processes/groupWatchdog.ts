import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The watchdog's program: CommonJS with Node built-ins only, run with `node -e`, so it needs no file on
 * disk and works the same from the sources and from the esbuild bundle. It reads `+pgid` / `-pgid` lines
 * on stdin; when stdin ends (the backend died, however: the kernel closes the pipe even on kill -9) it
 * sends SIGTERM to every group still registered, SIGKILL to what is left after a grace period, and exits.
 * It also watches its owner (whose pid it is given: the owner may be gone before this code first runs,
 * under load, when its parent pid is already init's), so it never waits on a pipe that somehow stays open.
 */
const PROGRAM = String.raw`
const groups = new Set();
const owner = Number(process.argv[1]);
let pending = '';
const send = (signal) => {
  for (const group of groups) {
    try { process.kill(-group, signal); } catch { groups.delete(group); }
  }
};
let reaping = false;
const reap = () => {
  if (reaping) return;
  reaping = true;
  send('SIGTERM');
  const started = Date.now();
  const poll = setInterval(() => {
    send(0);
    if (groups.size === 0 || Date.now() - started >= GRACE_MS) {
      send('SIGKILL');
      process.exit(0);
    }
  }, 50);
};
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let end;
  while ((end = pending.indexOf('\n')) >= 0) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    const group = Number(line.slice(1));
    if (!Number.isInteger(group) || group <= 1) continue;
    if (line[0] === '+') groups.add(group);
    else if (line[0] === '-') groups.delete(group);
  }
});
process.stdin.on('end', reap);
process.stdin.on('error', reap);
const ownerGone = () => {
  if (process.ppid !== owner) return true;
  try { process.kill(owner, 0); return false; } catch (error) { return error.code === 'ESRCH'; }
};
// Checked only from a timer: the groups already written on the pipe are read first.
setInterval(() => { if (ownerGone()) reap(); }, OWNER_CHECK_MS);
`;

/** Watchdogs started in place of ones that died, at most, per backend. */
const MAX_REPLACEMENTS = 10;

/** Time between SIGTERM and SIGKILL for the groups a dead backend left. */
const GRACE_MS = 2_000;
/** How often the watchdog checks that its owner still lives (the pipe's end is the main signal). */
const OWNER_CHECK_MS = 1_000;

/**
 * Kills the process groups of tool commands when this process dies, even by kill -9 (Node cannot ask
 * the kernel for a parent-death signal). A small detached Node process holds the read end of a pipe;
 * this process tells it each group it starts and ends. Spawned lazily, on the first group, so startup
 * pays nothing; it never keeps this process alive (unref'd).
 */
export class GroupWatchdog {
  private child: ChildProcess | null = null;
  private failed = false;
  private closed = false;
  private replaced = 0;
  /** The groups registered now: told again to a watchdog started in place of one that died. */
  private readonly groups = new Set<number>();

  /** Where a watchdog failure is reported (the runtime points this at its log). */
  constructor(public onProblem: (message: string) => void = () => {}) {}

  /** A group that must die with this process. */
  register(pgid: number): void {
    this.groups.add(pgid);
    this.send(`+${pgid}\n`, true);
  }

  /** A group that ended (or was killed): no longer the watchdog's business. */
  unregister(pgid: number): void {
    this.groups.delete(pgid);
    this.send(`-${pgid}\n`, false);
  }

  /** The watchdog's pid once it runs (tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Closes the pipe: the watchdog reaps what is still registered and exits (what a death does). */
  close(): void {
    this.closed = true;
    this.child?.stdin?.end();
    this.child = null;
  }

  private send(line: string, start: boolean): void {
    const child = this.child ?? (start ? this.start() : null);
    if (!child?.stdin?.writable) return;
    child.stdin.write(line);
  }

  private start(): ChildProcess | null {
    if (this.failed) return null;
    const program = PROGRAM.replace('GRACE_MS', String(GRACE_MS)).replace('OWNER_CHECK_MS', String(OWNER_CHECK_MS));
    try {
      // Detached: its own session, so the terminal's SIGHUP or a Ctrl+C to our group does not reach it.
      // No env: NODE_OPTIONS loaders would only slow it down.
      const child = spawn(process.execPath, ['-e', program, String(process.pid)], { detached: true, stdio: ['pipe', 'ignore', 'ignore'], env: {} });
      child.on('error', (error) => {
        this.failed = true;
        this.child = null;
        this.onProblem(`the process-group watchdog could not run: ${error.message}`);
      });
      child.stdin!.on('error', (error) => this.onProblem(`the process-group watchdog's pipe failed: ${error.message}`));
      // Killed from outside (kill -9, an OOM kill): a new one takes over the groups still running.
      child.on('exit', (code, signal) => {
        if (this.child !== child || this.closed) return;
        this.child = null;
        // One that keeps dying at once would otherwise be restarted in a tight loop.
        if (++this.replaced > MAX_REPLACEMENTS) {
          this.failed = true;
          this.onProblem(`the process-group watchdog ended (${signal ?? `code ${code}`}) ${MAX_REPLACEMENTS} times; tool commands may outlive a crash of hermes`);
          return;
        }
        this.onProblem(`the process-group watchdog ended (${signal ?? `code ${code}`}); starting another`);
        if (this.groups.size > 0 && this.start()) for (const group of this.groups) this.send(`+${group}\n`, false);
      });
      child.unref();
      // The pipe must not keep this process alive either.
      (child.stdin as unknown as { unref?: () => void }).unref?.();
      this.child = child;
      return child;
    } catch (error) {
      this.failed = true;
      this.onProblem(`the process-group watchdog could not start: ${(error as Error).message}`);
      return null;
    }
  }
}
