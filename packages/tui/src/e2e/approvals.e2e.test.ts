/**
 * The approval gate, clarify, `!cmd` and yolo end to end: the real `hermes` bundle in a pseudo-terminal,
 * the real backend and its real tools, and the scripted model server asking for the calls. Each test
 * checks what the user sees and what happened on disk.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../../../../scripts/model-server/index.ts';
import { submit, type HermesPty } from '../testing/ptyHarness.ts';
import { hermesWithModel, modelRequests, stopAll, type Running } from '../testing/realBackend.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const running: Running = { hermes: [], servers: [] };

afterEach(async () => {
  await stopAll(running);
});

/** A directory with a file in it, for a test to ask the model to delete. */
function victim(): string {
  const dir = tempDir('hermes-e2e-victim-');
  writeFileSync(join(dir, 'keep.txt'), 'precious\n');
  return dir;
}

const terminalCall = (command: string): Turn => ({ tool_calls: [{ name: 'terminal', arguments: { command } }] });

/** The screen with its line breaks (and Ink's wrapping) folded into single spaces. */
const flat = (screen: string) => screen.replace(/\s+/g, ' ');

const CARD = /⚠ approval needed · (terminal|shell)/;

/** Asks the model (scripted to delete `dir`) to clean up, and waits for the approval card. */
async function deleteAskedFor(dir: string): Promise<{ hermes: HermesPty; card: string }> {
  const { hermes } = await hermesWithModel(running, { turns: [terminalCall(`rm -rf ${dir}`), { text: 'Finished.' }] });
  await submit(hermes, 'clean up');
  const card = await hermes.waitForText(CARD);
  return { hermes, card };
}

describe('approvals against the real backend', () => {
  it('asks before a recursive delete; Enter alone denies, and the directory stays', async () => {
    const dir = victim();
    const { hermes, card } = await deleteAskedFor(dir);
    expect(card).toContain('⚠ approval needed · terminal');
    expect(card).toMatch(/^║ ⚠ delete\.recursive · /m);
    expect(card).toContain(`rm -rf ${dir}`);
    expect(card).toContain('❯ 4 Deny');

    hermes.press('enter');
    const screen = await hermes.waitForText('Finished.');
    expect(screen).toContain(`denied: terminal rm -rf ${dir}`);
    expect(screen).toMatch(new RegExp(`⊘ terminal rm -rf ${dir} — blocked`));
    await hermes.waitForText('● ready');
    expect(existsSync(join(dir, 'keep.txt'))).toBe(true);
  });

  it('runs the delete when approved once with 1 then Enter', async () => {
    const dir = victim();
    const { hermes } = await deleteAskedFor(dir);
    hermes.type('1');
    await hermes.waitForText('❯ 1 Allow once');
    hermes.press('enter');
    const screen = await hermes.waitForText('Finished.');
    expect(screen).toContain(`allowed once: terminal rm -rf ${dir}`);
    expect(screen).toMatch(new RegExp(`✓ terminal rm -rf ${dir}`));
    expect(existsSync(dir)).toBe(false);
  });

  it('denies with Esc', async () => {
    const dir = victim();
    const { hermes } = await deleteAskedFor(dir);
    hermes.press('escape');
    const screen = await hermes.waitForText('Finished.');
    expect(screen).not.toMatch(CARD);
    expect(screen).toMatch(new RegExp(`⊘ terminal rm -rf ${dir} — blocked`));
    expect(existsSync(join(dir, 'keep.txt'))).toBe(true);
  });

  it('at 60×20 shows the line of a delete far down a 40-line command on the card itself, and v opens the command at that line', async () => {
    const dir = victim();
    const lines = Array.from({ length: 40 }, (_, i) => `echo step-${i + 1}`);
    lines[34] = `rm -rf ${dir}`;
    const { hermes } = await hermesWithModel(running, { turns: [terminalCall(lines.join('\n')), { text: 'Finished.' }] }, { cols: 60, rows: 20 });
    await submit(hermes, 'clean up');
    const card = await hermes.waitForText(CARD);
    // Without pressing v: the gate's finding, the line it names (numbered), and the first line for context.
    expect(card).toMatch(/^║ (⚠|⛔) delete\.recursive · /m);
    expect(card).toMatch(new RegExp(`^║ +35│ rm -rf ${dir}`, 'm'));
    expect(card).toMatch(/^║ +1│ echo step-1\b/m);
    expect(card).toContain('… 33 lines');
    expect(card).toContain('❯ 4 Deny');

    hermes.type('v');
    const view = await hermes.waitForText(/lines \d+–\d+ of 40/);
    const [, first, last] = /lines (\d+)–(\d+) of 40/.exec(view) ?? [];
    expect(Number(first)).toBeLessThanOrEqual(35);
    expect(Number(last)).toBeGreaterThanOrEqual(35);
    // The line holding the finding is marked in the view.
    expect(view).toMatch(new RegExp(`^║ › rm -rf ${dir}`, 'm'));
    expect(view).toMatch(/^║ (⚠|⛔) delete\.recursive · /m);
    hermes.type('g');
    const top = await hermes.waitForText(/lines 1–\d+ of 40/);
    expect(top).toMatch(/^║ {3}echo step-1 /m);

    // Esc leaves the view only; the next Esc denies.
    hermes.press('escape');
    await hermes.waitForText('❯ 4 Deny');
    hermes.press('escape');
    await hermes.waitForText('Finished.');
    expect(existsSync(join(dir, 'keep.txt'))).toBe(true);
  });

  it('puts the model\'s clarify question on a card and sends the typed answer back to the model', async () => {
    const { hermes, server } = await hermesWithModel(running, {
      turns: [{ tool_calls: [{ name: 'clarify', arguments: { question: 'Which colour?', choices: ['red', 'blue'] } }] }, { text: 'Teal it is.' }],
    });
    await submit(hermes, 'paint it');
    await hermes.waitForText('? Which colour?');
    hermes.type('teal');
    await hermes.waitForText('› teal');
    hermes.press('enter');
    await hermes.waitForText('Teal it is.');
    expect(hermes.screenText()).toContain('Which colour? → teal');
    const requests = modelRequests(server);
    expect(requests).toHaveLength(2);
    expect(requests[1]).toContain('teal');
    expect(requests[0]).not.toContain('teal');
  });
});

describe('!cmd in the composer against the real backend', () => {
  it('runs a shell command without the model and shows its output', async () => {
    const { hermes, server } = await hermesWithModel(running, { turns: [{ text: 'unused' }] });
    await submit(hermes, '!echo hello; echo oops >&2; exit 3');
    const screen = await hermes.waitForText(/^ {2}exit 3$/m);
    expect(screen).toContain('❯ !echo hello; echo oops >&2; exit 3');
    expect(screen).toMatch(/^ {2}hello$/m);
    expect(screen).toMatch(/^ {2}oops$/m);
    await hermes.waitForText('● ready');
    expect(modelRequests(server)).toEqual([]);
  });

  it('asks before a dangerous !cmd; Enter denies and the transcript says it was blocked', async () => {
    const dir = victim();
    const { hermes } = await hermesWithModel(running, { turns: [{ text: 'unused' }] });
    await submit(hermes, `!rm -rf ${dir}`);
    const card = await hermes.waitForText(CARD);
    expect(card).toMatch(/^║ ⚠ delete\.recursive · /m);
    expect(card).toContain('waiting for your approval');
    hermes.press('enter');
    const screen = await hermes.waitForText('⊘ blocked:');
    expect(flat(screen)).toContain(`⊘ blocked: \`rm -rf ${dir}\` was not run: it needs approval (rm ${dir} and everything in it) and the user denied it.`);
    expect(screen).not.toMatch(CARD);
    await hermes.waitForText('● ready');
    expect(existsSync(join(dir, 'keep.txt'))).toBe(true);
  });

  it('says a command is running until it finishes, and keeps the composer for the next prompt', async () => {
    const dir = victim();
    const fifo = join(dir, 'fifo');
    await execa('mkfifo', [fifo]);
    const { hermes } = await hermesWithModel(running, { turns: [{ text: 'unused' }] });
    await submit(hermes, `!cat ${fifo}`);
    const screen = await hermes.waitForText(`running !cat ${fifo}…`);
    expect(screen).toContain('the command is running');
    // The command ends only when the test writes to the pipe it reads: no clock involved.
    await writeFile(fifo, 'from the pipe\n');
    await hermes.waitForText(/^ {2}from the pipe$/m);
    await hermes.waitForText('● ready');
  });

  it('shows how to use ! when it comes without a command', async () => {
    const { hermes } = await hermesWithModel(running, { turns: [{ text: 'unused' }] });
    await submit(hermes, '!');
    await hermes.waitForText('Type a shell command after "!"');
  });
});

describe('yolo', () => {
  it('Shift+Tab turns yolo on, with a warning and a marker, and a dangerous command then runs without a card', async () => {
    const dir = victim();
    const { hermes } = await hermesWithModel(running, { turns: [terminalCall(`rm -rf ${dir}`), { text: 'Finished.' }] });
    hermes.type('\x1b[Z');
    const on = await hermes.waitForText(/● ⚠ YOLO · ready/);
    expect(flat(on)).toContain('! yolo is on: dangerous commands run without asking in this session');

    await submit(hermes, 'clean up');
    const screen = await hermes.waitForText('Finished.');
    expect(screen).toMatch(new RegExp(`✓ terminal rm -rf ${dir}`));
    expect(hermes.bufferText()).not.toMatch(CARD);
    expect(existsSync(dir)).toBe(false);

    hermes.type('\x1b[Z');
    await hermes.waitForText('yolo is off');
    await hermes.waitForTextGone('YOLO');
  });
});
