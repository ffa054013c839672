/**
 * Completion never races, in a real pseudo-terminal against the real backend: each burst below is ONE
 * write, and gives the same result as typing it slowly (a key at a time, each answered on screen).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import type { HermesPty } from '../testing/ptyHarness.ts';
import { hermesWithModel, modelRequests, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };
afterEach(() => stopAll(running));

const TAB = '\t';
const DOWN = '\x1b[B';
const ENTER = '\r';

/** The composer's line (`❯ …`) as shown now. */
function composerLine(hermes: HermesPty): string {
  const line = hermes.screenText().split('\n').find((row) => row.startsWith('❯'));
  return (line ?? '').trimEnd();
}

describe('completion in the TUI', () => {
  it('/he Tab Enter in one write runs /help, as typing it slowly does', async () => {
    const { hermes, server } = await hermesWithModel(running, { turns: [{ text: '(unused)' }] });
    // Written the moment the prompt shows: the catalog may still be on its way, and must be waited for.
    hermes.type(`/he${TAB}${ENTER}`);
    // The list is taller than the screen (its first categories scroll off): read the scrollback too.
    await expect.poll(() => hermes.bufferText(), { timeout: 15_000 }).toMatch(/\/sessions[\s\S]*\/undo/);
    expect(hermes.bufferText()).not.toMatch(/is not a command/);

    // Slowly: the list, then Tab, then Enter, each seen on screen first.
    hermes.type('/he');
    await hermes.waitForText(/› \/help\s+\S/);
    hermes.type(TAB);
    await hermes.waitForText(/❯ \/help\s*$/m);
    hermes.type(ENTER);
    await expect.poll(() => hermes.bufferText().match(/\/sessions/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(hermes.bufferText()).not.toMatch(/is not a command/);
    expect(modelRequests(server)).toEqual([]);
  });

  it('/ Down Down Tab in one write completes the third item, as typing it slowly does', async () => {
    const { hermes } = await hermesWithModel(running, { turns: [{ text: '(unused)' }] });
    hermes.type('/');
    const list = await hermes.waitForText(/› \/\S+/);
    const names = list.split('\n').flatMap((row) => /^[› ] (\/\S+)/.exec(row)?.[1] ?? []);
    expect(names.length).toBeGreaterThanOrEqual(3);
    hermes.type(DOWN);
    await hermes.waitForText(new RegExp(`› ${names[1]}\\b`));
    hermes.type(DOWN);
    await hermes.waitForText(new RegExp(`› ${names[2]}\\b`));
    hermes.type(TAB);
    await hermes.waitForText(new RegExp(`❯ ${names[2]}\\s*$`, 'm'));
    const slow = composerLine(hermes);

    hermes.press('ctrl-c'); // clears the draft
    await hermes.waitForText('Ask hermes anything');
    hermes.type(`/${DOWN}${DOWN}${TAB}`);
    await hermes.waitForText(new RegExp(`❯ ${names[2]}\\s*$`, 'm'));
    expect(composerLine(hermes)).toBe(slow);
  });

  it('with › /status highlighted, Enter runs /status (typed /sta), in one write and slowly', async () => {
    const { hermes } = await hermesWithModel(running, { turns: [{ text: '(unused)' }] });
    hermes.type(`/sta${ENTER}`);
    // /status's own output: the session line and its approvals line.
    const ran = () => hermes.bufferText().match(/^\s*approvals \S+.*plugins \d+/gm)?.length ?? 0;
    await expect.poll(ran).toBe(1);

    hermes.type('/sta');
    await hermes.waitForText(/› \/status/);
    hermes.type(ENTER);
    await expect.poll(ran).toBe(2);
    expect(hermes.bufferText()).not.toMatch(/\/sta is not a command/);
  });

  it('completes an @path through complete.path; Tab typed with the word waits for the answer', async () => {
    const project = tempDir('hermes-completion-');
    writeFileSync(join(project, 'notes-for-hermes.md'), 'x\n');
    const { hermes } = await hermesWithModel(running, { turns: [{ text: '(unused)' }] }, { cwd: project });
    hermes.type(`read @notes${TAB}`);
    await hermes.waitForText(/❯ read @notes-for-hermes\.md\s*$/m);
  });

  it('completes /help arguments from the cached catalog', async () => {
    const { hermes } = await hermesWithModel(running, { turns: [{ text: '(unused)' }] });
    hermes.type(`/help und${TAB}`);
    await hermes.waitForText(/❯ \/help undo\s*$/m);
  });

  it('fetches the catalog again after /reload-plugins: a command added meanwhile completes', async () => {
    const home = tempDir('hermes-completion-home-');
    const { hermes } = await hermesWithModel(running, { turns: [{ text: '(unused)' }] }, { home });
    hermes.type('/zeb');
    await hermes.waitForText(/❯ \/zeb\s*$/m);
    expect(hermes.screenText()).not.toMatch(/› \/zebra/);
    hermes.press('ctrl-c');
    await hermes.waitForText('Ask hermes anything');

    const dir = join(home, 'plugins', 'zoo');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'plugin.yaml'), 'name: zoo\nversion: "1.0"\n');
    writeFileSync(join(dir, 'index.js'), `export function register(ctx) {
  ctx.registerCommand('zebra', () => 'the zebra says hi', 'A striped command');
}\n`);
    hermes.type(`/reload-plugins${ENTER}`);
    await hermes.waitForText(/zoo|1 plugin|reloaded/i);
    hermes.type(`/zeb${TAB}${ENTER}`);
    await hermes.waitForText('the zebra says hi');
  });

  it('completes /resume with stored session titles (session.list), Tab in the same write as the word', async () => {
    const { hermes } = await hermesWithModel(running, { turns: [{ text: 'noted' }] });
    hermes.type(`remember this${ENTER}`);
    await hermes.waitForText('noted');
    hermes.type(`/title parser fix notes${ENTER}`);
    await hermes.waitForText(/parser fix notes/);
    await hermes.waitForText(/● ready/);
    hermes.type(`/resume pars${TAB}`);
    await hermes.waitForText(/❯ \/resume parser fix notes\s*$/m);
  });

  it('completes /model from model.options, in one write, to a value /model accepts', async () => {
    const { hermes } = await hermesWithModel(running, { turns: [{ text: '(unused)' }] });
    hermes.type(`/model scripted${TAB}`);
    await hermes.waitForText(/❯ \/model \S+:scripted-model\s*$/m);
    // The completed value is one /model accepts.
    hermes.press('enter');
    await hermes.waitForText(/Model set to \S+:scripted-model\./);
  });
});
