/**
 * The status line and `/clear` end to end: the real bundle and backend, a scripted model, a real
 * pseudo-terminal.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { hermesWithModel, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };
afterEach(() => stopAll(running));

describe('status line in the TUI', () => {
  it('/clear leaves an empty screen with the new session\'s header, scrollback included', async () => {
    const { hermes } = await hermesWithModel(running, { turns: [{ text: 'First answer about kettles.' }, { text: 'Second answer.' }] });
    hermes.type('tell me about kettles');
    hermes.press('enter');
    await hermes.waitForText('First answer about kettles.');
    await hermes.waitForText(/● ready/);
    hermes.type('/clear');
    hermes.press('enter');
    const screen = await hermes.waitForTextGone('First answer about kettles.');
    await hermes.waitForText(/● ready/);
    const cleared = hermes.screenText();
    // The header is the first thing on the screen, the prompt and status line below it; nothing of before.
    expect(cleared.split('\n')[0]).toMatch(/^⚕ hermes/);
    expect(cleared).toMatch(/model +scripted-model/);
    expect(cleared).toMatch(/^❯/m);
    expect(hermes.bufferText()).not.toContain('kettles');
    expect(screen).not.toContain('Started a new session.');
    // Only one header: the one of the new session.
    expect(hermes.bufferText().match(/⚕ hermes/g)).toHaveLength(1);
    // And the new session answers.
    hermes.type('again');
    hermes.press('enter');
    await hermes.waitForText('Second answer.');
  });

  it('shows the cost when the model is priced, with the tokens and the background tasks the model started', async () => {
    const home = tempDir('hermes-e2e-home-');
    writeFileSync(join(home, 'config.yaml'), 'model:\n  input_cost_per_million: 3\n  output_cost_per_million: 15\n');
    const { hermes } = await hermesWithModel(
      running,
      {
        turns: [
          {
            tool_calls: [{ id: 'c1', name: 'terminal', arguments: { command: 'sleep 60', background: true } }],
            usage: { prompt_tokens: 1_000, completion_tokens: 200 },
          },
          { text: 'Started it.', usage: { prompt_tokens: 1_300, completion_tokens: 100 } },
        ],
      },
      { home, cols: 120, rows: 30 },
    );
    hermes.type('start the server');
    hermes.press('enter');
    await hermes.waitForText('Started it.');
    // 2,300 in at $3/M and 300 out at $15/M: $0.0069 + $0.0045.
    const screen = await hermes.waitForText(/● ready · scripted-model · 2\.6k tokens · context \d+% · \$0\.0114 · 1 background task/);
    expect(screen).toMatch(/Shift\+Tab: yolo/);
    hermes.type('/stop');
    hermes.press('enter');
    await hermes.waitForTextGone(/background task/);
  });
});
