/**
 * Tool rows tell the truth after `--resume`: the real `hermes` bundle in a pseudo-terminal, the real
 * backend and tools, the scripted model. A denied command stays ⊘ blocked (never ✓), a file change
 * keeps its ✓, duration and diff, in a second run that resumes the stored session.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import type { HermesPty } from '../testing/ptyHarness.ts';
import { hermesWithModel, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };

afterEach(async () => {
  await stopAll(running);
});

/** The tool row of `name` on the screen: its mark (or spinner), then the name. */
const toolRow = (screen: string, name: string) => screen.split('\n').find((line) => line.match(/^\s*\S (\S+) /)?.[1] === name) ?? '';

async function quit(hermes: HermesPty): Promise<void> {
  hermes.press('ctrl-d');
  expect((await hermes.exited).exitCode).toBe(0);
}

describe('tool rows after --resume', () => {
  it('a denied command stays blocked and a file change keeps its duration and diff', async () => {
    const home = tempDir('hermes-rows-home-');
    const dir = tempDir('hermes-rows-victim-');
    writeFileSync(join(dir, 'keep.txt'), 'precious\n');
    const notes = join(dir, 'notes.txt');
    const first = await hermesWithModel(
      running,
      {
        turns: [
          { tool_calls: [{ name: 'write_file', arguments: { path: notes, content: 'first line\n' } }] },
          { tool_calls: [{ name: 'terminal', arguments: { command: `rm -rf ${dir}` } }] },
          { text: 'Finished.' },
        ],
      },
      { home },
    );
    first.hermes.type('tidy up');
    await first.hermes.waitForText('❯ tidy up');
    first.hermes.press('enter');
    await first.hermes.waitForText(/approval needed · terminal/);
    // Enter alone denies.
    first.hermes.press('enter');
    const live = await first.hermes.waitForText('Finished.');
    expect(toolRow(live, 'terminal')).toMatch(/^\s*⊘ terminal rm -rf .* — blocked/);
    await first.hermes.waitForText('● ready');
    expect(existsSync(join(dir, 'keep.txt'))).toBe(true);
    await quit(first.hermes);

    const { hermes } = await hermesWithModel(running, { turns: [{ text: '(unused)' }] }, { home, args: ['-c'] });
    const resumed = await hermes.waitForText('Finished.');
    const denied = toolRow(resumed, 'terminal');
    expect(denied).toMatch(/^\s*⊘ terminal rm -rf .* — blocked: BLOCKED/);
    expect(denied).not.toContain('✓');
    expect(denied).toBe(toolRow(live, 'terminal'));
    // The write ran: ✓ with its duration, and its diff under it.
    expect(toolRow(resumed, 'write_file')).toMatch(/^\s*✓ write_file .*notes\.txt · \d+(ms|\.\ds)/);
    expect(resumed).toContain('+first line');
    expect(toolRow(resumed, 'write_file')).toBe(toolRow(live, 'write_file'));
  });

  for (const stop of ['ctrl-c', '/stop'] as const)
    it(`a command stopped by ${stop} shows interrupted with how long it ran, live and after hermes -c — never ✓`, async () => {
      const home = tempDir('hermes-rows-stop-');
      const command = 'echo started-sleeping; sleep 30';
      const first = await hermesWithModel(running, { turns: [{ tool_calls: [{ name: 'terminal', arguments: { command } }] }, { text: 'unused' }] }, { home });
      first.hermes.type('wait a while');
      await first.hermes.waitForText('❯ wait a while');
      first.hermes.press('enter');
      // Its output, not the row's title (`terminal echo started-sleeping; …`, on screen as the command
      // starts): a stop before the echo ran leaves "(no output)", which this test is not about.
      await first.hermes.waitForText(/(?<!echo )started-sleeping/);
      if (stop === 'ctrl-c') first.hermes.press('ctrl-c');
      else {
        first.hermes.type('/stop');
        await first.hermes.waitForText('❯ /stop');
        first.hermes.press('enter');
      }
      const live = await first.hermes.waitForText(/⊘ terminal echo started-sleeping/);
      expect(toolRow(live, 'terminal')).toMatch(/^\s*⊘ terminal echo started-sleeping; sleep 30 · \d/);
      await first.hermes.waitForText('● ready');
      await quit(first.hermes);

      const { hermes } = await hermesWithModel(running, { turns: [{ text: '(unused)' }] }, { home, args: ['-c'] });
      const resumed = await hermes.waitForText('❯ wait a while');
      // The same row as live: mark, duration and what the command had printed.
      expect(toolRow(resumed, 'terminal')).toMatch(/^\s*⊘ terminal echo started-sleeping; sleep 30 · \d+(ms|\.\ds) — started-sleeping/);
      expect(toolRow(resumed, 'terminal')).toBe(toolRow(live, 'terminal'));
      expect(resumed).not.toContain('✓ terminal');
    });
});
