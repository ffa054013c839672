/**
 * The real `hermes` bundle in a real pseudo-terminal, against the real backend and a scripted model
 * server speaking the OpenAI wire format. Run `npm run build` first (vitest's global setup does).
 */
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import type { Script } from '../../../../scripts/model-server/index.ts';
import { HERMES_BIN, spawnHermes } from '../testing/ptyHarness.ts';
import { waitUntilGone } from '../testing/processes.ts';
import { backendPids, CLEAN_ENV, hermesWithModel, promptsSeen, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };

afterEach(() => stopAll(running));

const withModel = (script: Script) => hermesWithModel(running, script);

describe('hermes --tui in a pseudo-terminal', () => {
  it('exits, and stops its backend, when its terminal goes away', async () => {
    const { hermes } = await withModel({ turns: [{ text: 'unused' }] });
    const [backendPid] = backendPids(hermes.hermesHome);
    expect(backendPid).toBeGreaterThan(0);
    hermes.hangUp();
    await waitUntilGone(hermes.pid);
    await waitUntilGone(backendPid);
  });

  it('sends a typed prompt and shows the streamed reply', async () => {
    const { hermes, server } = await withModel({
      turns: [{ text: 'Paris is the capital of France, and it streams in pieces.', chunk_size: 5, chunk_delay_ms: 10 }],
    });
    expect(hermes.screenText()).toContain('scripted-model');

    hermes.type('What is the capital of France?');
    await hermes.waitForText('❯ What is the capital of France?');
    hermes.press('enter');

    await hermes.waitForText('Paris is the capital of France, and it streams in pieces.');
    // The turn's usage reaches the status line (how it is laid out at each width is a render test: StatusLine.test.tsx).
    await hermes.waitForText(/● ready · scripted-model · \d+ tokens/);
    expect(promptsSeen(server).at(-1)).toContain('What is the capital of France?');
  });

  it('interrupts a long reply with Ctrl+C, keeps the partial text, and stays usable; Ctrl+C twice exits', async () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${String(i + 1).padStart(3, '0')} `);
    const { hermes, server } = await withModel({
      turns: [{ chunks: words, chunk_delay_ms: 50 }, { text: 'Second answer arrived.', chunk_delay_ms: 5 }],
    });

    hermes.type('Count slowly');
    hermes.press('enter');
    await hermes.waitForText('w005');
    await hermes.waitForText('Ctrl+C to interrupt');
    hermes.press('ctrl-c');

    const screen = await hermes.waitForText('[interrupted]');
    expect(screen).toMatch(/w00\d/);
    await hermes.waitForText(/● ready/);
    expect(hermes.bufferText()).not.toContain('w200');

    hermes.type('And now?');
    hermes.press('enter');
    await hermes.waitForText('Second answer arrived.');
    expect(promptsSeen(server)).toEqual(['Count slowly', 'And now?']);
    await hermes.waitForText(/● ready/);

    hermes.press('ctrl-c');
    await hermes.waitForText('Press Ctrl+C again to exit');
    hermes.press('ctrl-c');
    const exit = await hermes.exited;
    expect(exit.exitCode).toBe(0);
    // The terminal is handed back as it was found: bracketed paste switched off again.
    const raw = hermes.rawOutput();
    expect(raw.lastIndexOf('\x1b[?2004l')).toBeGreaterThan(raw.lastIndexOf('\x1b[?2004h'));
  });

  it('opens without a configured model and explains how to configure one', async () => {
    const hermes = spawnHermes({ args: ['--tui'], env: CLEAN_ENV });
    running.hermes.push(hermes);
    await hermes.waitForText('No model is configured', 20_000);
    const screen = await hermes.waitForText('Ask hermes anything');
    expect(screen).toContain('config.yaml');
    expect(screen).toContain('hermes --demo');

    hermes.type('hello?');
    hermes.press('enter');
    await hermes.waitForText('Not sent: no model is configured yet');
    hermes.type('still here');
    await hermes.waitForText('❯ still here');
  });

  it('shows why the backend could not start, with what it printed', async () => {
    const hermes = spawnHermes({ args: ['--tui'], env: { ...CLEAN_ENV, HERMES_RPC_ENTRY: '/nonexistent/hermes-rpc-main.js' } });
    running.hermes.push(hermes);
    const screen = await hermes.waitForText('hermes could not start', 20_000);
    expect(screen).toContain("Cannot find module '/nonexistent/hermes-rpc-main.js'");
    hermes.press('ctrl-c');
    hermes.press('ctrl-c');
    expect((await hermes.exited).exitCode).toBe(0);
  });

  it('refuses to start without a terminal', async () => {
    const result = await execa(process.execPath, [HERMES_BIN, '--tui'], { stdin: 'pipe', reject: false, env: { CI: undefined } });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain('hermes --tui needs an interactive terminal');
  });
});
