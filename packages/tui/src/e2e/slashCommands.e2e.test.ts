/**
 * Slash commands end to end: the real bundle and backend (its command registry), a scripted model, a real
 * pseudo-terminal. The completion list, Tab, running a command, and /stop during a streamed reply.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { hermesWithModel, modelRequests, promptsSeen, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };
afterEach(() => stopAll(running));

describe('slash commands in the TUI', () => {
  it('lists /help for /he, completes it with Tab, and Enter shows the help text', async () => {
    const { hermes, server } = await hermesWithModel(running, { turns: [{ text: '(unused)' }] });
    hermes.type('/he');
    // The list under the prompt: the command and its description.
    await hermes.waitForText(/› \/help\s+\S/);
    hermes.press('tab');
    await hermes.waitForText(/❯ \/help\s*$/m);
    hermes.press('enter');
    // The help text lists the built-ins, more lines than the screen has (its top scrolls off): read the scrollback too.
    await expect.poll(() => hermes.bufferText(), { timeout: 15_000 }).toMatch(/\/sessions[\s\S]*\/stop[\s\S]*\/undo/);
    expect(modelRequests(server)).toEqual([]);
  });

  it('Esc closes the list and keeps what was typed', async () => {
    const { hermes } = await hermesWithModel(running, { turns: [{ text: '(unused)' }] });
    hermes.type('/he');
    await hermes.waitForText(/› \/help/);
    hermes.press('escape');
    await hermes.waitForTextGone(/› \/help/);
    expect(hermes.screenText()).toMatch(/❯ \/he/);
  });

  it('/stop during a long reply interrupts it, keeping the partial text marked interrupted', async () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${String(i + 1).padStart(3, '0')} `);
    const { hermes } = await hermesWithModel(running, { turns: [{ chunks: words, chunk_delay_ms: 50 }] });
    hermes.type('Count slowly');
    hermes.press('enter');
    await hermes.waitForText('w005');
    hermes.type('/stop');
    hermes.press('enter');
    const screen = await hermes.waitForText('[interrupted]');
    expect(screen).toMatch(/w00\d/);
    await hermes.waitForText(/Interrupted the running turn/);
    await hermes.waitForText(/● ready/);
    expect(hermes.bufferText()).not.toContain('w200');
  });

  it('says what an unknown command is, with the backend\'s suggestion, and sends nothing to the model', async () => {
    const { hermes, server } = await hermesWithModel(running, { turns: [{ text: '(unused)' }] });
    hermes.type('/hepl');
    hermes.press('enter');
    await hermes.waitForText(/\/hepl is not a command\. Did you mean \/help\?/);
    expect(modelRequests(server)).toEqual([]);
  });

  it('/branch and /new switch the screen to the session the backend opened, and prompts go there', async () => {
    const { hermes, server } = await hermesWithModel(running, {
      turns: [{ text: 'First answer.' }, { text: 'Answer in the branch.' }, { text: 'Answer in the new one.' }],
    });
    hermes.type('remember the kettle');
    hermes.press('enter');
    await hermes.waitForText('First answer.');
    await hermes.waitForText(/● ready/);
    hermes.type('/branch try-b');
    hermes.press('enter');
    await hermes.waitForText(/branched: now in "try-b", a copy of the 2 messages above/);
    hermes.type('and in the branch?');
    hermes.press('enter');
    await hermes.waitForText('Answer in the branch.');
    await hermes.waitForText(/● ready/);
    // The branch carries the history the model sees.
    expect(modelRequests(server).at(-1)).toContain('remember the kettle');

    hermes.type('/new');
    hermes.press('enter');
    await hermes.waitForText('Started a new session.');
    hermes.type('fresh start');
    hermes.press('enter');
    await hermes.waitForText('Answer in the new one.');
    expect(modelRequests(server).at(-1)).not.toContain('remember the kettle');
  });

  it('/compress shows hermes working, Ctrl+C stops it, and no stale status is left on the status line', async () => {
    const home = tempDir('hermes-e2e-home-');
    // A small window, so three long exchanges leave a middle to summarize; only /compress compresses.
    writeFileSync(join(home, 'config.yaml'), 'model:\n  context_length: 2000\ncompression:\n  enabled: false\n');
    const long = (word: string) => `${word} `.repeat(400);
    const { hermes, server } = await hermesWithModel(
      running,
      { turns: [{ text: `${long('a')}First.` }, { text: `${long('b')}Second.` }, { text: 'Third.' }, { text: 'the summary', delay_ms: 60_000 }, { text: 'After.' }, { text: 'another summary', delay_ms: 60_000 }] },
      { home, cols: 80, rows: 24 },
    );
    for (const [prompt, answer] of [[long('one'), 'First.'], [long('two'), 'Second.'], ['three', 'Third.']]) {
      hermes.type(prompt!);
      hermes.press('enter');
      await hermes.waitForText(answer!);
      await hermes.waitForText(/● ready/);
    }
    hermes.type('/compress');
    hermes.press('enter');
    // The summary call is under way: hermes is working on it, and says how to stop it.
    const working = await hermes.waitForText(/compressing the conversation/);
    expect(modelRequests(server)).toHaveLength(4);
    expect(working).toMatch(/Ctrl\+C to interrupt\s*$/m);
    expect(working).not.toMatch(/Shift\+Tab/);
    // A prompt sent meanwhile is not lost: it is queued under the composer, to go once the session is free.
    hermes.type('four');
    hermes.press('enter');
    await hermes.waitForText('queued: four');
    expect(modelRequests(server)).toHaveLength(4);
    // Ctrl+C clears a draft first, then stops the compression.
    hermes.type('draft');
    hermes.press('ctrl-c');
    await hermes.waitForTextGone(/^❯ draft/m);
    hermes.press('ctrl-c');
    await hermes.waitForText(/Compression interrupted/);
    // The session is free again: the queued prompt goes at once, and nothing says it is still compressing.
    await hermes.waitForText('After.');
    const idle = await hermes.waitForText(/● ready/);
    expect(idle).not.toMatch(/compressing the conversation|queued: four/);
    expect(idle).not.toMatch(/Press Ctrl\+C again to exit/);
    expect(promptsSeen(server).at(-1)).toBe('four');

    // /stop stops a compression as Ctrl+C does, and the status line is back to ready after both.
    hermes.type('/compress');
    hermes.press('enter');
    await hermes.waitForText(/compressing the conversation/);
    hermes.type('/stop');
    hermes.press('enter');
    await hermes.waitForText(/Stopped the compression/);
    const stopped = await hermes.waitForText(/● ready/);
    expect(stopped).not.toMatch(/compressing the conversation|interrupting/);
  });
});
