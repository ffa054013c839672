/**
 * Broken files in $HERMES_HOME, seen where the user sees them: `hermes sessions list` and `hermes chat -q`
 * on stderr, and the TUI in a real pseudo-terminal. Each message names the file, what is wrong and the
 * fix, is shown whole (wrapped, never cut) and is never a stack trace.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer } from '../../../../scripts/model-server/index.ts';
import { mountSmallDisk, smallDiskUnavailable } from '../../../../scripts/testing/smallDisk.ts';
import { HERMES_BIN, spawnHermes, type HermesPty } from '../testing/ptyHarness.ts';
import { CLEAN_ENV, stopAll, type Running } from '../testing/realBackend.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const running: Running = { hermes: [], servers: [] };
afterEach(async () => {
  await stopAll(running);
});

/** A short path, so the messages' paths fit a 60-column panel without being split. */
function newHome(): string {
  const home = tempDir('hb-');
  fs.chmodSync(home, 0o755);
  return home;
}

/** A HERMES_HOME nobody may write to, and the user to run as: root ignores permissions, so tests then run as `nobody`. */
function readOnlyHome(): { home: string; user?: { uid: number; gid: number } } {
  const home = newHome();
  fs.chmodSync(home, 0o555);
  return { home, ...(process.getuid?.() === 0 ? { user: { uid: 65534, gid: 65534 } } : {}) };
}

/** A real state.db holding one session, then closed (its WAL checkpointed into the file). */
function realStateDb(home: string): string {
  const file = path.join(home, 'state.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec("CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('" + 'x'.repeat(20_000) + "');");
  db.close();
  return file;
}

type Breakage = { name: string; make: (home: string) => string; says: RegExp; fix: (file: string) => RegExp | string };

/** SQLite may have left -wal/-shm files beside it by now; the fix then moves them too. */
const MOVE_ASIDE = (file: string) => new RegExp(`Fix: move it aside \\(mv ${file} ${file}\\.broken[^)]*\\); hermes then creates a new, empty one\\.`);
const BREAKAGES: Breakage[] = [
  {
    name: 'a text file',
    make: (home) => {
      fs.writeFileSync(path.join(home, 'state.db'), 'my notes from yesterday\n'.repeat(10));
      return path.join(home, 'state.db');
    },
    says: /it is a text file, not a SQLite database/,
    fix: MOVE_ASIDE,
  },
  {
    name: 'a truncated file',
    make: (home) => {
      const file = realStateDb(home);
      fs.truncateSync(file, 6000);
      return file;
    },
    says: /it is truncated: 6000 bytes of the \d+ its header promises/,
    fix: MOVE_ASIDE,
  },
  {
    name: 'a bad header',
    make: (home) => {
      const file = realStateDb(home);
      const fd = fs.openSync(file, 'r+');
      fs.writeSync(fd, Buffer.from('SQLite format 0'), 0, 15, 0);
      fs.closeSync(fd);
      return file;
    },
    says: /its SQLite header is damaged/,
    fix: MOVE_ASIDE,
  },
  {
    name: 'a newer schema',
    make: (home) => {
      const file = path.join(home, 'state.db');
      const db = new Database(file);
      db.pragma('user_version = 999');
      db.close();
      return file;
    },
    says: /was written by a newer hermes \(schema 999; this one knows up to \d+\)/,
    fix: () => /Upgrade hermes to open it, or set HERMES_HOME to another folder to start afresh with this version\./,
  },
];

function hermes(home: string, args: string[], user?: { uid: number; gid: number }) {
  return execa(process.execPath, [HERMES_BIN, ...args], {
    env: { ...CLEAN_ENV, HERMES_HOME: home },
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
    ...(user ?? {}),
  });
}

/** No line of a stack trace anywhere in what the user sees. */
function expectNoStack(text: string): void {
  expect(text).not.toMatch(/^\s*(│\s*)?at .*(\(|:\d+:\d+)/m);
  expect(text).not.toMatch(/\.(?:js|ts):\d+:\d+/);
}

/** The panel's rows as one text (borders stripped, rows joined where the panel wrapped them). */
function panelText(screen: string): string {
  return screen
    .split('\n')
    .filter((row) => row.startsWith('│'))
    .map((row) => row.replace(/^│\s?/, '').replace(/\s*│$/, '').trim())
    .join(' ');
}

function tui(home: string, cols: number, options: { args?: string[]; user?: { uid: number; gid: number } } = {}): HermesPty {
  const pty = spawnHermes({ args: ['--tui', ...(options.args ?? [])], cols, rows: 30, env: { ...CLEAN_ENV, HERMES_HOME: home }, ...(options.user ? { user: options.user } : {}) });
  running.hermes.push(pty);
  return pty;
}

describe('a state.db that cannot be used', () => {
  for (const breakage of BREAKAGES) {
    it(`${breakage.name}: hermes sessions list and chat -q say which file, what is wrong and the fix`, async () => {
      const home = newHome();
      const file = breakage.make(home);
      const before = fs.readFileSync(file);
      for (const args of [['sessions', 'list'], ['chat', '-q', 'hi', '--provider', 'custom', '--base-url', 'http://127.0.0.1:9', '--model', 'm']]) {
        const result = await hermes(home, args);
        expect(result.exitCode).toBe(1);
        const first = result.stderr.split('\n')[0]!;
        expect(first).toMatch(new RegExp(`^hermes(?: sessions)?: The session database ${file} `));
        expect(first).toMatch(breakage.says);
        expect(first).toMatch(breakage.fix(file));
        expectNoStack(result.stderr);
      }
      // The broken file is left as it was, for the user to move or inspect.
      expect(fs.readFileSync(file).equals(before)).toBe(true);
    });

    it(`${breakage.name}: the TUI shows the whole message at 60 columns, without a stack`, async () => {
      const home = newHome();
      const file = breakage.make(home);
      const screen = await tui(home, 60).waitForText(/More in .*log/, 20_000);
      const shown = panelText(screen);
      expect(shown).toMatch(/Press Ctrl\+C twice to exit\.$/);
      expect(shown).toContain(`hermes could not start: The session database ${file} `);
      expect(shown).toMatch(breakage.says);
      expect(shown).toMatch(breakage.fix(file));
      expectNoStack(screen);
    });
  }
});

describe('a read-only HERMES_HOME', () => {
  it('hermes sessions list says the folder cannot be written and gives the chmod fix', async () => {
    const { home, user } = readOnlyHome();
    const result = await hermes(home, ['sessions', 'list'], user);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(
      `hermes sessions: Permission denied: hermes cannot write the session database ${home}/state.db (it needs to write the file and create files next to it in ${home}). Fix: chmod u+rwx ${home} (as the owner), or set HERMES_HOME to a folder you can write.`,
    );
    expectNoStack(result.stderr);
  });

  it('a HERMES_HOME to be created inside it: the chmod fix names the folder that exists, not the one to create', async () => {
    const { home, user } = readOnlyHome();
    const inner = path.join(home, 'sub', 'home');
    const result = await hermes(inner, ['sessions', 'list'], user);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(
      `hermes sessions: Permission denied: hermes cannot create the folder ${inner} for the session database ${inner}/state.db (it needs to write in ${home}). Fix: chmod u+rwx ${home} (as the owner), or set HERMES_HOME to a folder you can write.`,
    );
    expectNoStack(result.stderr);
  });

  it('the TUI shows the chmod fix without a stack trace', async () => {
    const { home, user } = readOnlyHome();
    const screen = await tui(home, 80, { user }).waitForText('Press Ctrl+C twice to exit', 20_000);
    const shown = panelText(screen);
    expect(shown).toContain(`hermes could not start: Permission denied: hermes cannot write the session database ${home}/state.db`);
    expect(shown).toContain(`Fix: chmod u+rwx ${home} (as the owner), or set HERMES_HOME to a folder you can write.`);
    expectNoStack(screen);
  });
});

describe('a HERMES_HOME that cannot be made, a state.db link to nowhere', () => {
  it('a HERMES_HOME under /proc: hermes sessions list says the folder cannot be created, with the fix, and exits (no hang)', async () => {
    const home = `/proc/hermes-no-such-${process.pid}/home`;
    const result = await hermes(home, ['sessions', 'list']);
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(
      `hermes sessions: hermes cannot create the folder /proc/hermes-no-such-${process.pid} for ${home}/state.db: the file system there refuses new folders. Fix: set HERMES_HOME to a folder you can create or write.`,
    );
    expectNoStack(result.stderr);
  });

  it('a state.db that links into a missing folder: names the link, its target and both fixes', async () => {
    const home = newHome();
    const target = path.join(home, 'moved-away', 'state.db');
    fs.symlinkSync(target, path.join(home, 'state.db'));
    const result = await hermes(home, ['sessions', 'list']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(
      `hermes sessions: The session database ${home}/state.db is a link to ${target}, whose folder does not exist. Fix: create that folder (mkdir -p ${path.dirname(target)}), or remove the link (rm ${home}/state.db) so hermes creates a new, empty database there.`,
    );
  });
});

describe('config.yaml mistakes while a model answers', () => {
  async function modelArgs(reply: string): Promise<string[]> {
    const server = await startModelServer({ loop: true, turns: [{ text: reply }] });
    running.servers.push(server);
    return ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'];
  }

  it('broken YAML: chat -q answers and stderr names the file, line, column and the fix', async () => {
    const home = newHome();
    fs.writeFileSync(path.join(home, 'config.yaml'), 'agent:\n  max_turns: 5\nmodel:\n  default: gpt: 4o\n');
    const result = await hermes(home, ['chat', '-q', 'hi', ...(await modelArgs('still here'))]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim()).toBe('still here');
    expect(result.stderr).toContain(
      `hermes: config problem: ${home}/config.yaml line 4: is not valid YAML at column 12: Nested mappings are not allowed in compact mappings. Fix that line`,
    );
  });

  it('broken YAML: the TUI panel says the config is broken (not that no model is configured), and the model answers', async () => {
    const home = newHome();
    fs.writeFileSync(path.join(home, 'config.yaml'), 'agent:\n  max_turns: 5\nmodel:\n  default: gpt: 4o\n');
    const pty = tui(home, 80, { args: await modelArgs('the model answers anyway') });
    const screen = await pty.waitForText('Ask hermes anything', 20_000);
    expect(screen).toContain('config.yaml has a syntax error: hermes ignores the whole file');
    expect(panelText(screen)).toContain(`${home}/config.yaml line 4: is not valid YAML at column 12`);
    expect(screen).not.toContain('No model is configured');
    expect(screen).not.toContain('No model configured');
    pty.type('hello?');
    pty.press('enter');
    await pty.waitForText('the model answers anyway');
  });

  it('an unknown key: warned with the nearest known key on stderr, in the TUI, and in the log', async () => {
    const home = newHome();
    fs.writeFileSync(path.join(home, 'config.yaml'), 'approvels:\n  mode: off\n');
    const warning = `${home}/config.yaml line 1: unknown key \`approvels\` — did you mean \`approvals\`? (hermes ignores it)`;
    const listed = await hermes(home, ['sessions', 'list']);
    expect(listed.exitCode).toBe(0);
    // Once, not once per use.
    expect(listed.stderr.split('\n').filter((line) => line.includes('approvels'))).toEqual([`hermes: warning: ${warning}`]);

    const pty = tui(home, 100, { args: await modelArgs('ok') });
    const screen = await pty.waitForText('Ask hermes anything', 20_000);
    expect(screen).toContain('config.yaml has an unknown key: hermes ignores it');
    expect(panelText(screen)).toContain(warning);
    expect(fs.readFileSync(path.join(home, 'logs', 'backend.log'), 'utf8')).toContain(`config: ${warning}`);
  });
});

describe('a disk that fills up while a reply streams', () => {
  const REPLY = Array.from({ length: 6000 }, (_, i) => `row ${String(i).padStart(5, '0')} of a long answer that will not fit on this disk\n`).join('');

  it.skipIf(smallDiskUnavailable() !== null)('the TUI says the disk is full and how much is saved; the saved part is in state.db', { timeout: 90_000 }, async () => {
    const disk = mountSmallDisk(16 * 1024 * 1024);
    try {
      const server = await startModelServer({ turns: [{ text: REPLY, chunk_size: 2_000, chunk_delay_ms: 8 }] });
      running.servers.push(server);
      const pty = tui(disk.dir, 100, { args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'] });
      await pty.waitForText('Ask hermes anything', 20_000);
      // About 256 KB left: the ~600 KB reply fills it after a few of its periodic writes.
      const freeSpace = disk.fill(256 * 1024);
      pty.type('tell me everything');
      pty.press('enter');
      // Rows may wrap anywhere between words: match across them.
      const screen = await pty.waitForText(/The\s+disk\s+is\s+full:\s+the\s+reply\s+was\s+stopped;[\s\S]*then\s+try\s+again\./, 60_000);
      const said = screen.replace(/\s+/g, ' ');
      expect(said).toMatch(/only the first [\d.]+ KB of the [\d.]+ KB reply shown is saved in/);
      expect(said).toContain('hermes keeps the rest in memory');
      expectNoStack(screen);

      // What the message says is saved is what state.db holds: the start of the reply.
      // The message gives KB to one decimal.
      const savedKb = /only the first ([\d.]+) KB/.exec(said)![1];
      const db = new Database(path.join(disk.dir, 'state.db'), { readonly: true });
      const row = db.prepare("SELECT content FROM messages WHERE role = 'assistant' ORDER BY id DESC LIMIT 1").get() as { content: string };
      db.close();
      expect(REPLY.startsWith(row.content)).toBe(true);
      expect((Buffer.byteLength(row.content) / 1024).toFixed(1)).toBe(savedKb);
      freeSpace();
      // Still usable: the composer takes the next prompt.
      pty.type('still there?');
      await pty.waitForText('❯ still there?');
    } finally {
      await stopAll(running);
      disk.unmount();
    }
  });
});
