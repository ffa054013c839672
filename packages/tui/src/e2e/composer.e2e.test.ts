/**
 * The composer in a real pseudo-terminal against the real backend and a scripted model: the prompt
 * history across a restart, a prompt queued during a stream, and Esc interrupting a reply.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { hermesWithModel, promptsSeen, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };

afterEach(() => stopAll(running));

/** A reply slow enough to type into while it streams. */
const slowWords = (count: number) => ({ chunks: Array.from({ length: count }, (_, i) => `w${String(i + 1).padStart(3, '0')} `), chunk_delay_ms: 50 });

describe('the composer in a pseudo-terminal', () => {
  it('↑ shows a prompt sent before hermes was restarted, and ↓ goes back to the empty draft', async () => {
    const home = tempDir('hermes-history-home-');
    const first = await hermesWithModel(running, { turns: [{ text: 'First answer.' }, { text: 'Second answer.' }] }, { home });
    first.hermes.type('remember this prompt');
    first.hermes.press('enter');
    await first.hermes.waitForText('First answer.');
    first.hermes.type('and then this one');
    first.hermes.press('enter');
    await first.hermes.waitForText('Second answer.');
    await first.hermes.waitForText(/● ready/);
    first.hermes.press('ctrl-d');
    expect((await first.hermes.exited).exitCode).toBe(0);
    // The format Hermes' classic CLI (prompt_toolkit) writes, so both share the file.
    expect(readFileSync(join(home, '.hermes_history'), 'utf8')).toMatch(
      /^\n# \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\n\+remember this prompt\n\n# [^\n]+\n\+and then this one\n$/,
    );

    const { hermes } = await hermesWithModel(running, { turns: [{ text: 'unused' }] }, { home });
    hermes.press('up');
    await hermes.waitForText('❯ and then this one');
    hermes.press('up');
    await hermes.waitForText('❯ remember this prompt');
    hermes.press('down');
    await hermes.waitForText('❯ and then this one');
    hermes.press('down');
    await hermes.waitForText('Ask hermes anything');
  });

  it('a prompt sent while a reply streams is queued under the composer and sent, as its own turn, when the reply ends', async () => {
    const { hermes, server } = await streamingSlowly({ text: 'Queued prompt answered.', chunk_delay_ms: 5 });
    hermes.type('then answer this');
    hermes.press('enter');
    await hermes.waitForText('queued: then answer this');
    // Still streaming the first reply: nothing else has reached the model yet.
    expect(promptsSeen(server)).toEqual(['Count slowly']);
    await hermes.waitForText('Queued prompt answered.', 30_000);
    await hermes.waitForTextGone('queued: then answer this');
    expect(promptsSeen(server)).toEqual(['Count slowly', 'then answer this']);
    const buffer = hermes.bufferText();
    expect(buffer.indexOf('w080')).toBeLessThan(buffer.indexOf('Queued prompt answered.'));
  });

  it('Esc interrupts a streaming reply, keeps the partial text, and the prompt works again', async () => {
    const { hermes, server } = await streamingSlowly({ text: 'After the interrupt.', chunk_delay_ms: 5 });
    hermes.press('escape');
    const screen = await hermes.waitForText('[interrupted]');
    expect(screen).toMatch(/w00\d/);
    await hermes.waitForText(/● ready/);
    expect(hermes.bufferText()).not.toContain('w080');
    hermes.type('And now?');
    hermes.press('enter');
    await hermes.waitForText('After the interrupt.');
    expect(promptsSeen(server)).toEqual(['Count slowly', 'And now?']);
  });
});

/** Hermes with "Count slowly" sent and its slow reply under way (`next` answers the prompt after it). */
async function streamingSlowly(next: { text: string; chunk_delay_ms: number }) {
  const started = await hermesWithModel(running, { turns: [slowWords(80), next] });
  started.hermes.type('Count slowly');
  started.hermes.press('enter');
  await started.hermes.waitForText('w003');
  return started;
}

describe('the prompt history file in a pseudo-terminal', () => {
  it('a damaged history file: a notice says what is wrong, the good entries are there for ↑ and Ctrl+R, and the file is only appended to', async () => {
    const home = tempDir('hermes-history-home-');
    const file = join(home, '.hermes_history');
    const damaged = '\n# 2025-01-02 10:00:00.000001\n+git status --short\nnot a history line\n\n# 2025-01-02 10:00:05.000001\n+make test\n';
    writeFileSync(file, damaged);
    const { hermes } = await hermesWithModel(running, { turns: [{ text: 'Cleared and answered.' }] }, { home });
    await hermes.waitForText(/1 line of the prompt history could not\s+be read \(the first is line 4\) and was skipped/);
    hermes.press('up');
    await hermes.waitForText('❯ make test');
    // Esc Esc clears the draft into the history.
    hermes.type('\x1b\x1b');
    await hermes.waitForText('Ask hermes anything');
    hermes.type('\x12');
    hermes.type('status');
    await hermes.waitForText("(reverse-i-search)`status': git status --short");
    hermes.press('enter');
    await hermes.waitForText('❯ git status --short');
    expect(readFileSync(file, 'utf8')).toBe(damaged);
    hermes.type(' please');
    hermes.press('enter');
    await hermes.waitForText('Cleared and answered.');
    const after = readFileSync(file, 'utf8');
    expect(after.startsWith(damaged)).toBe(true);
    expect(after.slice(damaged.length)).toMatch(/^\n# [^\n]+\n\+git status --short please\n$/);
  });
});
