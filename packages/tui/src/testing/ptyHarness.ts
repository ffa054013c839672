/**
 * Runs the real `hermes` in a real pseudo-terminal and reads the screen through a headless terminal
 * emulator, so tests see what a user would see (including what Ink erased and redrew).
 */
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import xtermHeadless from '@xterm/headless';
import pty from 'node-pty';
import { onCleanup, tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { childPids } from './processes.ts';

const { Terminal } = xtermHeadless;

export const HERMES_BIN = fileURLToPath(new URL('../../bin/hermes.cjs', import.meta.url));
const HERMES_SOURCE = fileURLToPath(new URL('../main.tsx', import.meta.url));
/** A scripted stand-in for the backend (`HERMES_RPC_ENTRY`), for screens the real one cannot yet produce on demand. */
export const FAKE_BACKEND = fileURLToPath(new URL('./fakeBackend.ts', import.meta.url));

const KEYS = {
  enter: '\r',
  'ctrl-c': '\x03',
  'ctrl-d': '\x04',
  backspace: '\x7f',
  escape: '\x1b',
  up: '\x1b[A',
  down: '\x1b[B',
  left: '\x1b[D',
  right: '\x1b[C',
  tab: '\t',
} as const;

export type KeyName = keyof typeof KEYS;

/** Output pause taken as the end of a frame. */
const QUIET_MS = 60;

export interface PtyExit {
  exitCode: number;
  signal?: number;
}

export interface HermesPty {
  /** The visible screen, one string per row joined by newlines, trailing spaces trimmed. */
  screenText(): string;
  /** Scrollback and screen together. */
  bufferText(): string;
  /** Every byte hermes wrote to the terminal, escape sequences included. */
  rawOutput(): string;
  /**
   * Rows (scrollback included) that are the terminal's own wrap of a line wider than it: Ink breaks its
   * lines itself, so each is a line hermes laid out too wide. Empty when everything fit.
   */
  overflowRows(): Promise<string[]>;
  /** The terminal cursor once output has paused: its screen row and column (from 0), and whether hermes shows it. */
  cursor(): Promise<{ row: number; column: number; visible: boolean }>;
  waitForText(pattern: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Waits until the screen no longer shows `pattern` (a card closed, a spinner stopped). */
  waitForTextGone(pattern: string | RegExp, timeoutMs?: number): Promise<string>;
  type(text: string): void;
  press(key: KeyName): void;
  /** Bracketed paste, as a terminal sends it. */
  paste(text: string): void;
  resize(cols: number, rows: number): void;
  readonly exited: Promise<PtyExit>;
  readonly hermesHome: string;
  readonly pid: number;
  /** Closes the terminal under hermes, as closing its window does: the master side goes away. */
  hangUp(): void;
  kill(): Promise<void>;
}

/** Types `text` into the composer, waits until the composer shows it, then presses Enter. */
export async function submit(hermes: HermesPty, text: string): Promise<void> {
  hermes.type(text);
  await hermes.waitForText(`❯ ${text}`);
  hermes.press('enter');
}

export interface SpawnOptions {
  args?: string[];
  env?: Record<string, string | undefined>;
  cols?: number;
  rows?: number;
  cwd?: string;
  /** Run the TypeScript sources through tsx instead of the bundle (slower; for development). */
  fromSource?: boolean;
  /** Run this `hermes` instead of the repository's (an installed copy's bin). */
  bin?: string;
  /** Run hermes as this user (needs root), e.g. to meet permissions that root would ignore. */
  user?: { uid: number; gid: number };
}

export function spawnHermes(options: SpawnOptions = {}): HermesPty {
  const cols = options.cols ?? 100;
  const rows = options.rows ?? 30;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...options.env })) {
    if (value !== undefined) env[name] = value;
  }
  // With CI set, Ink prints nothing until exit.
  delete env.CI;
  // A home of its own unless the test brings one; removed when the test is done.
  env.HERMES_HOME = options.env?.HERMES_HOME ?? tempDir('hermes-e2e-home-');
  env.TERM = 'xterm-256color';
  delete env.NO_COLOR;
  // The backend checks each result and event it sends against its schema (rpc-server contractCheck.ts).
  env.HERMES_CHECK_RESULTS ??= '1';

  const terminal = new Terminal({ cols, rows, scrollback: 5_000, allowProposedApi: true });
  const entry = options.fromSource ? ['--conditions=source', '--import', 'tsx', HERMES_SOURCE] : [options.bin ?? HERMES_BIN];
  const child = pty.spawn(process.execPath, [...entry, ...(options.args ?? ['--tui'])], {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: options.cwd ?? process.cwd(),
    env,
    ...(options.user ?? {}),
  });
  const rawLog = process.env.HERMES_PTY_RAW_LOG;
  let raw = '';
  let lastDataAt = Date.now();
  child.onData((data) => {
    lastDataAt = Date.now();
    terminal.write(data);
    raw += data;
    if (rawLog) appendFileSync(rawLog, data);
  });
  const exited = new Promise<PtyExit>((resolve) => child.onExit((exit) => resolve(exit)));
  let done = false;
  void exited.then(() => {
    done = true;
  });

  const lines = (from: number, to: number) => {
    const buffer = terminal.buffer.active;
    const out: string[] = [];
    for (let y = from; y < to; y++) out.push(buffer.getLine(y)?.translateToString(true) ?? '');
    return out.join('\n');
  };
  let visibleRows = rows;
  const screenText = () => lines(terminal.buffer.active.viewportY, terminal.buffer.active.viewportY + visibleRows);
  const bufferText = () => lines(0, terminal.buffer.active.length);

  // Writes to the emulator are asynchronous; reading waits for them to be parsed.
  const settled = () => new Promise<void>((resolve) => terminal.write('', resolve));

  /** Waits until hermes has written nothing for a moment (at most ~1 s), then for the emulator. */
  async function quiet(): Promise<void> {
    const until = Date.now() + 1_000;
    while (Date.now() - lastDataAt < QUIET_MS && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, QUIET_MS / 2));
    await settled();
  }

  async function waitForScreen(pattern: string | RegExp, present: boolean, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    const matches = (text: string) => (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text));
    for (;;) {
      await settled();
      let text = screenText();
      if (matches(text) === present) {
        // A frame can arrive in several reads: return the screen once output has paused, so the
        // caller sees the whole frame the match belongs to, not its first half.
        await quiet();
        text = screenText();
        if (matches(text) === present) return text;
      }
      if (Date.now() > deadline || done) {
        const what = `${present ? '' : 'the end of '}${String(pattern)}`;
        throw new Error(`timed out waiting for ${what}${done ? ' (hermes exited)' : ''}; the screen shows:\n${text}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const harness: HermesPty = {
    screenText,
    bufferText,
    rawOutput: () => raw,
    async overflowRows() {
      await quiet();
      const buffer = terminal.buffer.active;
      const rows: string[] = [];
      for (let y = 0; y < buffer.length; y++) {
        const line = buffer.getLine(y);
        if (line?.isWrapped) rows.push(`${buffer.getLine(y - 1)?.translateToString(true) ?? ''}⏎${line.translateToString(true)}`);
      }
      return rows;
    },
    async cursor() {
      await quiet();
      const buffer = terminal.buffer.active;
      // The last show/hide sequence written decides (DECTCEM); the emulator's API does not expose it.
      const visible = raw.lastIndexOf('\x1b[?25h') > raw.lastIndexOf('\x1b[?25l');
      return { row: buffer.baseY + buffer.cursorY - buffer.viewportY, column: buffer.cursorX, visible };
    },
    hermesHome: env.HERMES_HOME,
    exited,
    waitForText: (pattern, timeoutMs) => waitForScreen(pattern, true, timeoutMs),
    waitForTextGone: (pattern, timeoutMs) => waitForScreen(pattern, false, timeoutMs),
    type(text) {
      child.write(text);
    },
    press(key) {
      child.write(KEYS[key]);
    },
    paste(text) {
      child.write(`\x1b[200~${text}\x1b[201~`);
    },
    resize(newCols, newRows) {
      terminal.resize(newCols, newRows);
      child.resize(newCols, newRows);
      visibleRows = newRows;
    },
    pid: child.pid,
    hangUp() {
      // node-pty's UnixTerminal closes the master fd, then sends SIGHUP; its typings omit destroy().
      (child as unknown as { destroy(): void }).destroy();
    },
    async kill() {
      if (!done) {
        // hermes leads its own process group (the pty's session); the backend it started leads another
        // (rpc/backendSpawn.ts), found as hermes's child before hermes goes. Both groups are killed, so
        // nothing writes into HERMES_HOME once it is removed, even a backend that would not exit itself.
        const groups = [child.pid, ...childPids(child.pid)];
        for (const group of groups) {
          try {
            process.kill(-group, 'SIGKILL');
          } catch (error) {
            // ESRCH: that group ended just now, between the listing and the kill (or leads none).
            if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
          }
        }
        await exited;
      }
      terminal.dispose();
    },
  };
  // Registered after the home: hermes (and the backend it runs) is stopped before the home goes.
  onCleanup(() => harness.kill());
  return harness;
}
