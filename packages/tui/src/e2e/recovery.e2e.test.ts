/**
 * A backend killed under the TUI (kill -9, as an out-of-memory kill does) is brought back: the real bundle
 * in a pseudo-terminal, the real backend, the scripted model streaming slowly so the kill lands mid-reply.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startModelServer } from '../../../../scripts/model-server/index.ts';
import { spawnHermes, type HermesPty } from '../testing/ptyHarness.ts';
import { childPids, isAlive } from '../testing/processes.ts';
import { backendPids, CLEAN_ENV, hermesWithModel, promptsSeen, stopAll, type Running } from '../testing/realBackend.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const running: Running = { hermes: [], servers: [] };
afterEach(async () => {
  await stopAll(running);
});

/** Waits until the run has started its `count`-th backend, and returns that backend's pid. */
async function nthBackend(hermes: HermesPty, count: number, timeoutMs = 20_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pids = backendPids(hermes.hermesHome);
    if (pids.length >= count) return pids[count - 1]!;
    if (Date.now() > deadline) throw new Error(`backend #${count} never reported ready; pids so far: ${pids.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The backend processes hermes (`parent`) runs now, from /proc: seen before they report ready. */
function backendChildren(parent: number): number[] {
  return childPids(parent).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('hermes-rpc');
    } catch {
      return false; // exited meanwhile
    }
  });
}

/** The first backend process of `parent` other than `except`, as soon as it exists (before it is ready). */
async function firstChild(parent: number, except = 0): Promise<number> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = backendChildren(parent).find((pid) => pid !== except);
    if (found) return found;
    if (Date.now() > deadline) throw new Error('no backend was started');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const occurrences = (text: string, needle: string) => text.split(needle).length - 1;
/** Screen text with the panel's borders and all wrapping removed, so a long message reads as one string. */
const unwrapped = (text: string) => text.replace(/[│╭╮╰╯─\s]+/g, '');

const RESTARTED = 'backend restarted (exit signal SIGKILL) — session resumed';

describe('hermes --tui when its backend dies', () => {
  it('keeps the partial reply marked interrupted, restarts the backend, resumes the session and answers the next prompt', async () => {
    const words = Array.from({ length: 300 }, (_, i) => `w${String(i + 1).padStart(3, '0')} `);
    const { hermes, server } = await hermesWithModel(running, {
      turns: [{ chunks: words, chunk_delay_ms: 50 }, { text: 'Back again, with the whole session.' }],
    });
    const first = await nthBackend(hermes, 1);

    hermes.type('Count slowly');
    hermes.press('enter');
    await hermes.waitForText('w005');
    process.kill(first, 'SIGKILL');
    // Typed while the backend is down: kept in the composer, sent once it is back.
    hermes.type('And now?');

    const screen = await hermes.waitForText(RESTARTED, 20_000);
    expect(screen).toMatch(/w00\d[\s\S]*\[interrupted\]/);
    await hermes.waitForText('❯ And now?');
    expect(await nthBackend(hermes, 2)).not.toBe(first);
    await hermes.waitForText(/● ready/);

    hermes.press('enter');
    await hermes.waitForText('Back again, with the whole session.');
    expect(promptsSeen(server)).toEqual(['Count slowly', 'And now?']);
    // The resumed session is the stored one: the model saw the first prompt again in the second request.
    const second = server.requests.filter((request) => request.path === '/v1/chat/completions')[1]!;
    expect(JSON.stringify(second.body)).toContain('Count slowly');

    const buffer = hermes.bufferText();
    // The history was not printed a second time on resume, and the reply did not run on.
    expect(occurrences(buffer, '❯ Count slowly')).toBe(1);
    expect(occurrences(buffer, RESTARTED)).toBe(1);
    expect(buffer).toMatch(/w00\d/);
    expect(buffer).not.toContain('w300');
  });

  it('a hung backend (SIGSTOP) mid-reply: Ctrl+C replaces it, the partial reply stays, the next prompt is answered', async () => {
    const words = Array.from({ length: 300 }, (_, i) => `h${String(i + 1).padStart(3, '0')} `);
    const { hermes, server } = await hermesWithModel(running, {
      // The answer after the hang streams for seconds: the dead backend's unanswered interrupt must not end it.
      turns: [{ chunks: words, chunk_delay_ms: 50 }, { chunks: [...Array.from({ length: 50 }, () => 'slow '), 'Answered after the hang.'], chunk_delay_ms: 100 }],
    });
    const first = await nthBackend(hermes, 1);
    hermes.type('Count slowly');
    hermes.press('enter');
    await hermes.waitForText('h005');
    process.kill(first, 'SIGSTOP');
    try {
      hermes.press('ctrl-c');
      await hermes.waitForText('interrupting…');
      // A stopped backend answers nothing; the TUI must not say "interrupting…" until the user quits.
      await hermes.waitForText('did not answer Ctrl+C', 20_000);
      await hermes.waitForText(RESTARTED, 20_000);
      expect(isAlive(first)).toBe(false);
      await hermes.waitForText(/● ready/);
      expect(hermes.screenText()).toMatch(/h00\d[\s\S]*\[interrupted\]/);
      hermes.type('And now?');
      await hermes.waitForText('❯ And now?');
      hermes.press('enter');
      await hermes.waitForText('Answered after the hang.');
      await hermes.waitForText(/● ready/);
      expect(promptsSeen(server)).toEqual(['Count slowly', 'And now?']);
      expect(hermes.bufferText()).not.toContain('h300');
      expect(hermes.bufferText()).not.toMatch(/interrupt failed|stopped waiting/);
    } finally {
      if (isAlive(first)) process.kill(first, 'SIGKILL');
    }
  });

  it('a prompt sent to a backend that hung before storing it is not lost: after Ctrl+C replaces the backend it is back in the composer', async () => {
    const { hermes, server } = await hermesWithModel(running, { turns: [{ text: 'Got the prompt that almost went missing.' }] });
    const first = await nthBackend(hermes, 1);
    process.kill(first, 'SIGSTOP');
    try {
      hermes.type('Remember this line');
      await hermes.waitForText('❯ Remember this line');
      hermes.press('enter');
      await hermes.waitForText('hermes is answering');
      hermes.press('ctrl-c');
      await hermes.waitForText(RESTARTED, 20_000);
      await hermes.waitForText('your last prompt never reached the backend; it is back in the prompt');
      await hermes.waitForText(/^❯ Remember this line$/m);
      hermes.press('enter');
      await hermes.waitForText('Got the prompt that almost went missing.');
      expect(promptsSeen(server)).toEqual(['Remember this line']);
    } finally {
      if (isAlive(first)) process.kill(first, 'SIGKILL');
    }
  });

  it('kill -9 during an approval card: the call is shown interrupted, live and in `hermes -c` afterwards — never ✓', async () => {
    const home = tempDir('hermes-e2e-approval-kill-');
    const command = `rm -rf ${join(home, 'never-made')}`;
    const { hermes } = await hermesWithModel(running, { turns: [{ tool_calls: [{ name: 'terminal', arguments: { command } }] }, { text: 'unused' }] }, { home });
    hermes.type('clean up');
    hermes.press('enter');
    await hermes.waitForText('approval needed');
    process.kill(await nthBackend(hermes, 1), 'SIGKILL');
    await hermes.waitForText(RESTARTED, 20_000);
    expect(hermes.screenText()).toContain(`⊘ terminal ${command} — interrupted`);
    hermes.press('ctrl-c');
    hermes.press('ctrl-c');
    await hermes.exited;

    const { hermes: resumed } = await hermesWithModel(running, { turns: [{ text: 'unused' }] }, { home, args: ['-c'] });
    const screen = await resumed.waitForText('❯ clean up');
    expect(screen).toContain(`⊘ terminal ${command} — interrupted`);
    expect(screen).not.toContain('✓ terminal');
  });

  it('SIGTERM to the backend mid-tool: the stopped command is shown interrupted, not ✓, and the session goes on', async () => {
    const command = 'echo partial-before-sigterm; sleep 30';
    const { hermes } = await hermesWithModel(running, { turns: [{ tool_calls: [{ name: 'terminal', arguments: { command } }] }, { text: 'Next answer.' }] });
    const backend = await nthBackend(hermes, 1);
    hermes.type('run it');
    hermes.press('enter');
    await hermes.waitForText(/(?<!echo )partial-before-sigterm/); // its output, not the row's title
    process.kill(backend, 'SIGTERM');
    const screen = await hermes.waitForText('session resumed', 20_000);
    expect(screen).toContain(`⊘ terminal ${command}`);
    expect(screen).not.toContain('✓ terminal');
    await hermes.waitForText(/● ready/);
  });

  it('a second kill -9 while the restarted backend is still starting is one more restart, not the end', async () => {
    const { hermes, server } = await hermesWithModel(running, { turns: [{ text: 'Answered by the third backend.' }] });
    const first = await nthBackend(hermes, 1);
    process.kill(first, 'SIGKILL');
    const second = await firstChild(hermes.pid, first);
    process.kill(second, 'SIGKILL');

    await hermes.waitForText(RESTARTED, 20_000);
    await hermes.waitForText(/● ready/);
    // The second backend died before it was ready (the kill landed during the restart); the third resumed.
    const ready = backendPids(hermes.hermesHome);
    expect(ready).toHaveLength(2);
    expect(ready).not.toContain(second);
    hermes.type('still there?');
    hermes.press('enter');
    await hermes.waitForText('Answered by the third backend.');
    expect(promptsSeen(server)).toEqual(['still there?']);
    expect(hermes.screenText()).not.toContain('could not restart');
  });

  it('a backend killed while hermes starts is started again, and the session works', async () => {
    const server = await startModelServer({ turns: [{ text: 'Answered by the second backend.' }] });
    running.servers.push(server);
    const hermes = spawnHermes({ args: ['--tui', '--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'], env: CLEAN_ENV });
    running.hermes.push(hermes);
    const first = await firstChild(hermes.pid);
    process.kill(first, 'SIGKILL');

    await hermes.waitForText(/● ready/, 20_000);
    // The kill landed before the first backend was ready; the one that came up is another.
    expect(backendPids(hermes.hermesHome)).toHaveLength(1);
    expect(backendPids(hermes.hermesHome)).not.toContain(first);
    hermes.type('hello?');
    hermes.press('enter');
    await hermes.waitForText('Answered by the second backend.');
    expect(hermes.screenText()).not.toContain('could not start');
  });

  it('a terminal closed mid-tool: hermes and its backend exit, the command is gone, its partial output is stored as the result', async () => {
    const pidFile = join(tempDir('hermes-hangup-'), 'pids');
    const command = `echo started-before-the-hangup; sleep 30 & echo "$$ $!" > ${pidFile}; wait`;
    const { hermes } = await hermesWithModel(running, { turns: [{ tool_calls: [{ id: 'call_wait', name: 'terminal', arguments: { command } }] }, { text: 'unused' }] });
    const backend = await nthBackend(hermes, 1);
    hermes.type('run it');
    hermes.press('enter');
    const [group, child] = await vi.waitFor(() => {
      const pids = readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
      expect(pids).toHaveLength(2);
      return pids as [number, number];
    }, { timeout: 20_000, interval: 50 });
    hermes.hangUp();
    await hermes.exited;
    await vi.waitFor(() => expect([backend, child, -group].filter(isAlive)).toEqual([]), { timeout: 15_000, interval: 50 });

    const db = new Database(join(hermes.hermesHome, 'state.db'), { readonly: true });
    const result = db.prepare("SELECT tool_call_id, status, content FROM messages WHERE role = 'tool'").all() as { tool_call_id: string; status: string; content: string }[];
    db.close();
    expect(result).toHaveLength(1);
    expect(result[0]).toMatchObject({ tool_call_id: 'call_wait', status: 'interrupted' });
    expect(result[0]!.content).toMatch(/^started-before-the-hangup\n\[interrupted \(hermes stopped: [^)]+\): the command and the processes it started were killed/);
  });

  it('stops restarting after three restarts in a minute and says how to continue and which log to read', async () => {
    const { hermes } = await hermesWithModel(running, { loop: true, turns: [{ text: 'still here' }] });
    for (let restart = 1; restart <= 3; restart++) {
      process.kill(await nthBackend(hermes, restart), 'SIGKILL');
      await nthBackend(hermes, restart + 1);
      const deadline = Date.now() + 20_000;
      while (occurrences(hermes.bufferText(), RESTARTED) < restart) {
        if (Date.now() > deadline) throw new Error(`restart ${restart} was never announced:\n${hermes.screenText()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await hermes.waitForText(/● ready/);
    }

    process.kill(await nthBackend(hermes, 4), 'SIGKILL');
    const screen = await hermes.waitForText('stopped restarting it', 20_000);
    const text = unwrapped(screen);
    expect(text).toContain(unwrapped('Continue with `hermes -c` (or `hermes --resume'));
    expect(text).toContain(unwrapped(join(hermes.hermesHome, 'logs', 'backend.log')));
    // No fifth backend: the budget is spent.
    expect(backendPids(hermes.hermesHome)).toHaveLength(4);

    // Read-only: a prompt is refused with the reason and kept; Ctrl+C twice still quits cleanly.
    hermes.type('hello?');
    await hermes.waitForText('❯ hello?');
    hermes.press('enter');
    const refused = await hermes.waitForText('the backend is not running — press Ctrl+C twice to exit');
    expect(refused).toContain('❯ hello?');
    hermes.press('ctrl-c');
    hermes.press('ctrl-c');
    hermes.press('ctrl-c');
    expect((await hermes.exited).exitCode).toBe(0);
  });
});
