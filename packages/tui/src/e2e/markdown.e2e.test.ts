/**
 * A markdown reply in a real pseudo-terminal, from the real backend and a scripted model: rendered once
 * it is complete (no `##`, `**` or fences on screen; the table in box lines inside the width), and the
 * same again when the session is resumed in a new run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { hermesWithModel, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };
afterEach(() => stopAll(running));

const REPLY = [
  '## Why CI is slow',
  '',
  'The **cache key** changed, so `npm ci` ran cold.',
  '',
  '1. Pin the lockfile',
  '2. Restore the cache',
  '',
  '```ts',
  'const key = hash(lockfile);',
  '```',
  '',
  '| step | before | after |',
  '|------|-------:|------:|',
  '| install | 140s | 12s |',
  '',
  'See [the runbook](https://example.com/ci).',
].join('\n');

/** The rows from the reply's first line to its last. */
function replyRows(screen: string): string[] {
  const rows = screen.split('\n').map((row) => row.trimEnd());
  const first = rows.findIndex((row) => row.includes('Why CI is slow'));
  const last = rows.findIndex((row) => row.includes('See the runbook'));
  return rows.slice(first, last + 1);
}

describe('markdown replies in the terminal', () => {
  it('renders a reply as markdown at 60 columns, and renders it the same when the session is resumed', async () => {
    const home = tempDir('hermes-markdown-home-');
    const first = await hermesWithModel(running, { turns: [{ text: REPLY }] }, { cols: 60, rows: 40, home });
    first.hermes.type('why is CI slow?');
    first.hermes.press('enter');
    const screen = await first.hermes.waitForText('See the runbook (https://example.com/ci).');
    const rows = replyRows(screen);
    expect(rows[0]).toBe('● Why CI is slow');
    expect(rows).toContain('  The cache key changed, so npm ci ran cold.');
    expect(rows).toContain('  1. Pin the lockfile');
    expect(rows).toContain('    const key = hash(lockfile);');
    expect(rows).toContain('  │ install │   140s │   12s │');
    expect(screen).not.toMatch(/##|\*\*|```|\|---/);
    expect(await first.hermes.overflowRows()).toEqual([]);
    first.hermes.press('ctrl-d');
    expect((await first.hermes.exited).exitCode).toBe(0);

    const second = await hermesWithModel(running, { turns: [{ text: 'not asked' }] }, { cols: 60, rows: 40, home, args: ['-c'] });
    const resumed = await second.hermes.waitForText('See the runbook (https://example.com/ci).');
    expect(replyRows(resumed)).toEqual(rows);
  });

  it('writes a link as an OSC 8 hyperlink with FORCE_HYPERLINK=1: the terminal shows only its text', async () => {
    const { hermes } = await hermesWithModel(running, { turns: [{ text: 'See [the runbook](https://example.com/ci) first.' }] }, { cols: 60, rows: 20, env: { FORCE_HYPERLINK: '1' } });
    hermes.type('where is the runbook?');
    hermes.press('enter');
    const screen = await hermes.waitForText('See the runbook first.');
    expect(screen).not.toContain('(https://example.com/ci)');
    expect(hermes.rawOutput()).toContain('\x1b]8;;https://example.com/ci\x1b\\');
    expect(await hermes.overflowRows()).toEqual([]);
  });
});
