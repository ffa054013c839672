/**
 * A program in a real pseudo-terminal, read through a headless terminal emulator with exact timing:
 * every chunk is parsed as it arrives and the screen predicate is checked right after (no polling), so
 * "the prompt is on screen" is timed to the chunk that drew it. For the test harness with keys and
 * waits, see packages/tui/src/testing/ptyHarness.ts; this one is for measuring.
 */
import xtermHeadless from '@xterm/headless';
import pty from 'node-pty';

const { Terminal } = xtermHeadless;

/** The environment for a TUI under measurement: Ink treats any `CI` (even empty) as CI and paints only on exit. */
export function ptyEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...extra })) if (value !== undefined) env[name] = value;
  delete env.CI;
  delete env.NO_COLOR;
  // Checking every result against its schema is for tests, not for the figures.
  delete env.HERMES_CHECK_RESULTS;
  env.TERM = 'xterm-256color';
  return env;
}

export interface PtyScreen {
  readonly pid: number;
  /** Milliseconds since spawn. */
  elapsed(): number;
  /** The visible screen, rows joined by newlines, trailing spaces trimmed. */
  screen(): string;
  /** Scrollback and screen. */
  buffer(): string;
  /** Bytes the program has written so far. */
  bytesWritten(): number;
  /** Milliseconds since spawn of the first output, or -1. */
  firstOutputMs(): number;
  /** Resolves with `elapsed()` at the first parsed chunk after which `predicate(screen)` holds. */
  waitFor(predicate: (screen: string) => boolean, timeoutMs?: number, what?: string): Promise<number>;
  write(data: string): void;
  readonly exited: Promise<number>;
  kill(): Promise<void>;
}

export function spawnInPty(file: string, args: string[], options: { cols?: number; rows?: number; cwd?: string; env?: Record<string, string> } = {}): PtyScreen {
  const cols = options.cols ?? 100;
  const rows = options.rows ?? 30;
  const term = new Terminal({ cols, rows, scrollback: 100_000, allowProposedApi: true });
  const started = performance.now();
  const child = pty.spawn(file, args, { name: 'xterm-256color', cols, rows, cwd: options.cwd ?? process.cwd(), env: options.env ?? ptyEnv() });
  let bytes = 0;
  let first = -1;
  const waiters = new Set<() => void>();
  const lines = (from: number, to: number) => {
    const buffer = term.buffer.active;
    const out: string[] = [];
    for (let y = from; y < to; y += 1) out.push(buffer.getLine(y)?.translateToString(true) ?? '');
    return out.join('\n');
  };
  const screen = () => lines(term.buffer.active.viewportY, term.buffer.active.viewportY + rows);
  child.onData((data) => {
    if (first < 0) first = performance.now() - started;
    bytes += Buffer.byteLength(data);
    term.write(data, () => {
      for (const check of [...waiters]) check();
    });
  });
  const exited = new Promise<number>((resolve) => child.onExit(({ exitCode }) => resolve(exitCode)));
  let done = false;
  void exited.then(() => {
    done = true;
    for (const check of [...waiters]) check();
  });
  return {
    pid: child.pid,
    elapsed: () => performance.now() - started,
    screen,
    buffer: () => lines(0, term.buffer.active.length),
    bytesWritten: () => bytes,
    firstOutputMs: () => first,
    waitFor(predicate, timeoutMs = 30_000, what = 'the expected screen') {
      return new Promise((resolve, reject) => {
        const finish = (error?: Error) => {
          waiters.delete(check);
          clearTimeout(timer);
          if (error) reject(error);
          else resolve(performance.now() - started);
        };
        const check = () => {
          if (predicate(screen())) finish();
          else if (done) finish(new Error(`the program exited before ${what}; the screen shows:\n${screen()}`));
        };
        const timer = setTimeout(() => finish(new Error(`${what} did not appear within ${timeoutMs} ms; the screen shows:\n${screen()}`)), timeoutMs);
        waiters.add(check);
        check();
      });
    },
    write: (data) => child.write(data),
    exited,
    async kill() {
      if (!done) child.kill('SIGKILL');
      await exited;
    },
  };
}
