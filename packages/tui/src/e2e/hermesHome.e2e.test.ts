/**
 * The TUI in a real pseudo-terminal on a Hermes user's `~/.hermes` (scripts/fixtures/hermes-home/,
 * copied, with Hermes's own state.db): it opens with no config panel, its prompt history is the home's `.hermes_history`, `/plugins`
 * shows the Python plugin as not loadable here with what it needs, and the only file that changes is
 * the history the user added to (appended, never rewritten); hermes's sessions go to hermes-node.db.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer } from '../../../../scripts/model-server/index.ts';
import { addedFiles, addHermesStateDb, changedFiles, hermesHomeCopy, snapshotFiles } from '../../../../scripts/testing/hermesHomeFixture.ts';
import { spawnHermes } from '../testing/ptyHarness.ts';
import { CLEAN_ENV, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };
afterEach(() => stopAll(running));

describe('the TUI on a Hermes home', () => {
  it('opens it as it is: no config panel, its history under ↑, /plugins shows the Python plugin; only the history grows, sessions go beside the state.db of Hermes', async () => {
    const home = hermesHomeCopy();
    // A real Hermes home has Hermes's own session database: hermes keeps its sessions beside it.
    const hermesDb = addHermesStateDb(home);
    const history = fs.readFileSync(path.join(home, '.hermes_history'), 'utf8');
    const before = snapshotFiles(home);
    const server = await startModelServer({ turns: [{ text: 'Hello from the scripted model.' }] });
    running.servers.push(server);
    // The provider, model and key are the home's; only the endpoint is the scripted server's.
    const tui = spawnHermes({ args: ['--tui', '--base-url', server.baseUrl], env: { ...CLEAN_ENV, HERMES_HOME: home }, cols: 160 });
    running.hermes.push(tui);
    await tui.waitForText('Ask hermes anything', 20_000);
    expect(tui.screenText()).not.toMatch(/config|unknown key|warning/i);

    tui.press('up');
    await tui.waitForText('❯ write a commit message for the staged change');
    tui.press('escape');
    tui.press('escape');
    await tui.waitForTextGone('❯ write a commit message');

    tui.type('/plugins');
    await tui.waitForText('❯ /plugins');
    tui.press('enter');
    await tui.waitForText('honcho-memory 1.2.0 (user) tools 0, hooks 0, middleware 0, commands 0 — not loadable here (Python) — missing env: HONCHO_API_KEY, HONCHO_PROJECT_ID');

    tui.type('say hello');
    await tui.waitForText('❯ say hello');
    tui.press('enter');
    await tui.waitForText('Hello from the scripted model.');
    await stopAll(running);

    const after = snapshotFiles(home);
    expect(changedFiles(before, after)).toEqual(['.hermes_history']);
    expect(addedFiles(before, after).filter((file) => file.includes('.db'))).toEqual(expect.arrayContaining(['hermes-node.db']));
    expect(addedFiles(before, after).filter((file) => file.startsWith('state.db'))).toEqual([]);
    expect(fs.existsSync(hermesDb)).toBe(true);
    const grown = fs.readFileSync(path.join(home, '.hermes_history'), 'utf8');
    expect(grown.startsWith(history)).toBe(true);
    expect(grown.slice(history.length)).toMatch(/^\n# \d{4}-\d\d-\d\d [\d:.]+\n\+\/plugins\n\n# \d{4}-\d\d-\d\d [\d:.]+\n\+say hello\n$/);
  });
});
