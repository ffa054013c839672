/**
 * Stored sessions end to end: the real bundle and backend, a scripted model, and one HERMES_HOME shared
 * by successive runs: `hermes sessions …` without a terminal, and resuming in the TUI (`-c`, `--resume`,
 * the Ctrl+X picker's full-text search, /title, /undo).
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../../scripts/model-server/index.ts';
import { HERMES_BIN, type HermesPty } from '../testing/ptyHarness.ts';
import { chatUntilTool, CLEAN_ENV, hermesWithModel, modelRequests, stopAll, type Running } from '../testing/realBackend.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const running: Running = { hermes: [], servers: [] };
let home: string;

beforeEach(() => {
  home = tempDir('hermes-sessions-home-');
});
afterEach(async () => {
  await stopAll(running);
});

/** Answers one prompt headlessly, storing a session in `home`. */
async function chat(prompt: string, reply: string): Promise<void> {
  const server: ModelServer = await startModelServer({ turns: [{ text: reply }] });
  running.servers.push(server);
  const result = await execa(
    process.execPath,
    [HERMES_BIN, 'chat', '-q', prompt, '--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'],
    { env: { ...CLEAN_ENV, HERMES_HOME: home }, reject: false, stdin: 'ignore', timeout: 60_000 },
  );
  expect(result.exitCode, result.stderr).toBe(0);
}

function sessions(...args: string[]) {
  return execa(process.execPath, [HERMES_BIN, 'sessions', ...args], {
    env: { ...CLEAN_ENV, HERMES_HOME: home },
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
  });
}

/** Stored session ids, newest first. */
async function storedIds(): Promise<string[]> {
  const list = await sessions('list');
  expect(list.exitCode, list.stderr).toBe(0);
  return list.stdout.split('\n').slice(1).map((line) => line.split(/\s+/)[0]);
}

async function tui(replies: string[], args: string[] = []): Promise<{ hermes: HermesPty; server: ModelServer }> {
  // The model server wants at least one turn, even for a run that asks nothing.
  const turns = (replies.length ? replies : ['(unused)']).map((text) => ({ text }));
  return hermesWithModel(running, { turns }, { args, home });
}

async function ask(hermes: HermesPty, prompt: string, reply: string): Promise<void> {
  hermes.type(prompt);
  hermes.press('enter');
  await hermes.waitForText(reply);
  await hermes.waitForText(/● ready/);
}

/** Leaves with Ctrl+D on the empty prompt, so the backend closes its store properly. */
async function quit(hermes: HermesPty): Promise<void> {
  hermes.press('ctrl-d');
  expect((await hermes.exited).exitCode).toBe(0);
}

describe('hermes sessions (no terminal)', () => {
  it('lists, searches, shows and exports stored sessions', async () => {
    await chat('tell me about the rare mineral', 'It is called zanzibarite.');
    const [id] = await storedIds();
    expect(id).toBeTruthy();

    const list = await sessions('list', '--limit', '5');
    expect(list.stdout).toMatch(/^ID\s+STARTED\s+MESSAGES\s+TITLE/);
    expect(list.stdout).toContain('tell me about the rare mineral');

    const search = await sessions('search', 'zanzibarite');
    expect(search.exitCode, search.stderr).toBe(0);
    expect(search.stdout).toMatch(new RegExp(`${id}\\s+assistant\\s+.*zanzibarite`));
    // Text too short for an index: a store this small is read whole within the budget, so no note; --all reads it whole anyway.
    const short = await sessions('search', 'ib');
    expect([short.exitCode, short.stderr]).toEqual([0, '']);
    expect(short.stdout).toMatch(new RegExp(`${id}\\s+assistant\\s+.*zanz«ib»arite`));
    expect((await sessions('search', 'ib', '--all')).stdout).toBe(short.stdout);
    const misplaced = await sessions('list', '--all');
    expect([misplaced.exitCode, misplaced.stderr]).toEqual([2, expect.stringContaining('--all applies to "search" only')]);

    const show = await sessions('show', id);
    expect(show.exitCode, show.stderr).toBe(0);
    expect(show.stdout).toBe('you: tell me about the rare mineral\n\nhermes: It is called zanzibarite.');

    const md = await sessions('export', id, '--format', 'md');
    expect(md.exitCode, md.stderr).toBe(0);
    expect(md.stdout).toContain('## User\n\ntell me about the rare mineral\n\n## Assistant\n\nIt is called zanzibarite.');

    const json = await sessions('export', id, '--format', 'json');
    const exported = JSON.parse(json.stdout) as { session: { id: string }; messages: { role: string; text: string }[] };
    expect(exported.session.id).toBe(id);
    expect(exported.messages.map((m) => [m.role, m.text])).toEqual([
      ['user', 'tell me about the rare mineral'],
      ['assistant', 'It is called zanzibarite.'],
    ]);
  });

  it('show and export only read: a tool another hermes is running keeps one result, not an added "interrupted" one', async () => {
    const server: ModelServer = await startModelServer({ turns: [{ tool_calls: [{ name: 'terminal', arguments: { command: 'sleep 2; echo finished' } }] }, { text: 'all done' }] });
    running.servers.push(server);
    fs.writeFileSync(path.join(home, 'config.yaml'), 'approvals:\n  mode: off\n');
    const { running: busy } = await chatUntilTool(home, server, 'run the slow one', 'sleep 2');
    const [id] = await storedIds();
    const show = await sessions('show', id!);
    expect(show.exitCode, show.stderr).toBe(0);
    expect(show.stdout).not.toContain('interrupted');
    expect((await sessions('export', id!, '--format', 'json')).exitCode).toBe(0);
    expect((await busy).exitCode).toBe(0);
    const json = await sessions('export', id!, '--format', 'json');
    const exported = JSON.parse(json.stdout) as { session: { model?: string }; messages: { role: string; text: string }[] };
    expect(exported.messages.filter((m) => m.role === 'tool').map((m) => m.text)).toEqual([expect.stringContaining('finished')]);
    expect(exported.session.model).toBe('scripted-model');
  });

  it('exits 1 when the session is not found and 2 on a usage error', async () => {
    const missing = await sessions('show', 'no-such-session');
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('no saved session matches "no-such-session"');
    expect((await sessions('frobnicate')).exitCode).toBe(2);
    expect((await sessions('export', 'x', '--format', 'pdf')).exitCode).toBe(2);
    const badLimit = await sessions('list', '--limit', 'many');
    expect(badLimit.exitCode).toBe(2);
    expect(badLimit.stderr).toMatch(/^hermes sessions list: --limit must be a positive whole number, not "many"/);
    expect((await sessions('show')).exitCode).toBe(2);
    // An option the command does not read is refused, not ignored.
    const stray = await sessions('list', '--json');
    expect(stray.exitCode).toBe(2);
    expect(stray.stderr).toContain('--json does not apply to hermes sessions.');
  });

  it('deletes a session', async () => {
    await chat('to be deleted', 'ok');
    const [id] = await storedIds();
    const deleted = await sessions('delete', id);
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    expect(await storedIds()).not.toContain(id);
    expect((await sessions('delete', id)).exitCode).toBe(1);
  });
});

describe('resuming sessions in the TUI', () => {
  it('finds a session by a word inside its messages with the Ctrl+X picker, and resumes it', async () => {
    const first = await tui(['It is called zanzibarite, found nowhere else.']);
    await ask(first.hermes, 'tell me about the rare mineral', 'found nowhere else');
    await quit(first.hermes);

    const { hermes } = await tui([]);
    hermes.type('\x18');
    await hermes.waitForText('Sessions · type to filter');
    await hermes.waitForText('tell me about the rare mineral');
    hermes.type('zanzibarite');
    await hermes.waitForText('filter: zanzibarite');
    // The word is only in the reply, so the local filter hides the row and only the backend's
    // full-text search brings it back.
    const screen = await hermes.waitForText(/❯ .*tell me about the rare mineral/);
    expect(screen).toContain('filter: zanzibarite');
    hermes.press('enter');
    await hermes.waitForText(/resumed .* · 2 messages/);
    const resumed = await hermes.waitForText('It is called zanzibarite, found nowhere else.');
    expect(resumed).toContain('❯ tell me about the rare mineral');
    await hermes.waitForText('Ask hermes anything');
  });

  it('hermes -c reopens the latest session and continues it', async () => {
    const first = await tui(['The first answer.']);
    await ask(first.hermes, 'first question', 'The first answer.');
    await quit(first.hermes);

    const { hermes, server } = await tui(['The second answer.'], ['-c']);
    await hermes.waitForText('The first answer.');
    expect(hermes.screenText()).toContain('❯ first question');
    await ask(hermes, 'second question', 'The second answer.');
    // The model saw the resumed history.
    expect(modelRequests(server).at(-1)).toContain('first question');
  });

  it('hermes --resume <title> reopens the session /title named', async () => {
    const first = await tui(['Noted.']);
    await ask(first.hermes, 'remember the kettle', 'Noted.');
    first.hermes.type('/title Kettle notes');
    first.hermes.press('enter');
    await first.hermes.waitForText('Title set to "Kettle notes".');
    await quit(first.hermes);

    const { hermes } = await tui([], ['--resume', 'Kettle notes']);
    await hermes.waitForText('resumed "Kettle notes"');
    expect(hermes.screenText()).toContain('❯ remember the kettle');
  });

  it('says so when --resume finds nothing, and opens a new session', async () => {
    const { hermes } = await tui([], ['--resume', 'nothing by this name']);
    await hermes.waitForText('no saved session matches "nothing by this name"');
  });

  it('/undo drops the last prompt and puts it back into the composer', async () => {
    const { hermes } = await tui(['First reply.']);
    await ask(hermes, 'a prompt to take back', 'First reply.');
    hermes.type('/undo');
    hermes.press('enter');
    await hermes.waitForText('Removed 1 turn.');
    await hermes.waitForText(/❯ a prompt to take back\s*$/m);
  });

  it('answers an unknown /command without sending it to the model', async () => {
    const { hermes, server } = await tui([]);
    hermes.type('/frobnicate');
    hermes.press('enter');
    await hermes.waitForText('/frobnicate is not a command');
    expect(modelRequests(server)).toEqual([]);
  });
});
