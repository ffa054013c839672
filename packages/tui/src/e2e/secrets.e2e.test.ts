/**
 * Secrets on screen: the real `hermes` in a pseudo-terminal, the real backend, an exported API key and a
 * secret in `$HERMES_HOME/.env`. The model runs `env`, the user runs `!env` and reads the .env (which
 * asks): neither value ever reaches the terminal.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { submit } from '../testing/ptyHarness.ts';
import { hermesWithModel, modelRequests, stopAll, type Running } from '../testing/realBackend.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const running: Running = { hermes: [], servers: [] };
afterEach(() => stopAll(running));

const KEY = 'sk-hermes-pty-FAKE-9d8c7b6a5f4e3d2c1b0a';
const DOTENV_SECRET = 'pty-dotenv-secret-h5j6k7l8';

describe('secrets on screen', () => {
  it('neither an exported key nor a .env secret reaches the terminal, though the model ran env and the user read the .env', async () => {
    const home = tempDir('hermes-e2e-secrets-home-');
    writeFileSync(join(home, '.env'), `PTY_SECRET=${DOTENV_SECRET}\n`);
    const { hermes, server } = await hermesWithModel(
      running,
      { turns: [{ tool_calls: [{ name: 'terminal', arguments: { command: 'env; echo "count=$(env | grep -c -e OPENAI_API_KEY -e PTY_SECRET)"' } }] }, { text: 'Finished.' }] },
      { home, env: { OPENAI_API_KEY: KEY }, rows: 50 },
    );
    await submit(hermes, 'show the environment');
    await hermes.waitForText('Finished.');
    await hermes.waitForText('● ready');
    // The model got the environment without the key and the .env variable.
    expect(modelRequests(server).at(-1)).toContain('count=0');

    await submit(hermes, '!cat $HERMES_HOME/.env; echo read-done');
    const card = await hermes.waitForText(/⚠ approval needed · shell/);
    expect(card).toMatch(/read\.secrets/);
    hermes.type('1');
    await hermes.waitForText('❯ 1 Allow once');
    hermes.press('enter');
    await hermes.waitForText(/^ {2}read-done$/m);
    expect(hermes.bufferText()).toMatch(/^ {2}PTY_SECRET=\[REDACTED\]$/m);
    await hermes.waitForText('● ready');
    for (const secret of [KEY, DOTENV_SECRET]) {
      expect(hermes.rawOutput()).not.toContain(secret);
      expect(modelRequests(server).join('\n')).not.toContain(secret);
    }
  });
});
