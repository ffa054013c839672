/**
 * Escape sequences in what the model writes never reach the terminal: a reply (or a tool call's
 * arguments) could otherwise retitle the window, write the clipboard (OSC 52) or recolour the screen.
 * They are shown spelled out or dropped, as `!cmd` output and card text already are.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { spawnHermes } from '../testing/ptyHarness.ts';
import { CLEAN_ENV, hermesWithModel, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };
afterEach(() => stopAll(running));

const TITLE = '\x1b]0;PWNED-TITLE\x07';
const CLIPBOARD = '\x1b]52;c;cm0gLXJmIH4=\x1b\\';

describe('control characters from the model', () => {
  it('a reply and a tool line with escape sequences are shown without sending them to the terminal', async () => {
    const { hermes } = await hermesWithModel(
      running,
      {
        turns: [
          { text: `before ${TITLE}middle ${CLIPBOARD}after \x1b[5mblink\x1b[0m end` },
          { tool_calls: [{ name: 'read_file', arguments: { path: `notes${TITLE}.txt` } }] },
          { text: 'Read it.' },
        ],
      },
      { cols: 80, rows: 24 },
    );
    hermes.type('hello');
    hermes.press('enter');
    await hermes.waitForText(/before .*middle .*after .*blink.* end/);
    hermes.type('read it');
    hermes.press('enter');
    await hermes.waitForText('Read it.');
    const raw = hermes.rawOutput();
    expect(raw).not.toContain('\x1b]0;PWNED');
    expect(raw).not.toContain('\x1b]52;');
    expect(raw).not.toContain('\x1b[5m');
  });

  it('a backend that dies writing escape sequences to stderr is reported without them', async () => {
    const entry = join(tempDir('hermes-e2e-entry-'), 'dying-backend.mjs');
    writeFileSync(entry, `process.stderr.write(${JSON.stringify(`fatal: ${TITLE}state broke ${CLIPBOARD}\x1b[5mhere\n`)}); process.exit(3);\n`);
    const hermes = spawnHermes({ env: { ...CLEAN_ENV, HERMES_RPC_ENTRY: entry }, cols: 80, rows: 24 });
    running.hermes.push(hermes);
    await hermes.waitForText(/fatal: .*state broke .*here/, 20_000);
    const raw = hermes.rawOutput();
    expect(raw).not.toContain('\x1b]0;PWNED');
    expect(raw).not.toContain('\x1b]52;');
    expect(raw).not.toContain('\x1b[5m');
  });
});
