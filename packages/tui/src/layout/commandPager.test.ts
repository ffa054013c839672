import { describe, expect, it } from 'vitest';
import type { ApprovalFinding } from '@hermes/rpc-server/protocol';
import { clampTop, openingTop, pagerPosition, pagerRows, pagerWindow } from './commandPager.ts';

describe('the command pager', () => {
  it('knows which line of the command each wrapped row is, and says which lines are on screen', () => {
    const all = pagerRows('short\nthis line is long enough to wrap\nlast', 13);
    expect(all.rows).toEqual(['short', 'this line is', 'long enough', 'to wrap', 'last']);
    expect(all.lineOf).toEqual([0, 1, 1, 1, 2]);
    const window = pagerWindow(all, 1, 3);
    expect(window.rows).toEqual(['this line is', 'long enough', 'to wrap']);
    expect(pagerPosition(window)).toBe('line 2 of 3');
    expect(pagerPosition(pagerWindow(all, 2, 3))).toBe('lines 2–3 of 3');
  });

  it('never scrolls past the last page, nor before the first', () => {
    expect(clampTop(99, 40, 8)).toBe(32);
    expect(clampTop(-3, 40, 8)).toBe(0);
    expect(clampTop(5, 4, 8)).toBe(0);
    const all = pagerRows(Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n'), 60);
    const last = pagerWindow(all, 1_000, 8);
    expect(last.rows.at(-1)).toBe('line 40');
    expect(pagerPosition(last)).toBe('lines 33–40 of 40');
  });

  it('gives every row of a line holding a finding that finding\'s level, and opens a little above the first such line', () => {
    const finding = (level: ApprovalFinding['level'], line?: number): ApprovalFinding => ({ level, rule: 'r', target: 't', why: 'w', ...(line ? { line } : {}) });
    const command = Array.from({ length: 40 }, (_, i) => (i === 29 ? 'rm -rf this line is long enough to wrap' : `line ${i + 1}`)).join('\n');
    const all = pagerRows(command, 13, [finding('dangerous'), finding('hardline', 30), finding('dangerous', 40)]);
    const marked = all.levels.flatMap((level, row) => (level ? [[all.rows[row], level]] : []));
    expect(marked).toEqual([
      ['rm -rf this', 'hardline'],
      ['line is long', 'hardline'],
      ['enough to', 'hardline'],
      ['wrap', 'hardline'],
      ['line 40', 'dangerous'],
    ]);
    const top = openingTop(all, 8);
    expect(all.rows.slice(top, top + 3)).toEqual(['line 28', 'line 29', 'rm -rf this']);
    expect(pagerWindow(all, top, 8).levels.slice(0, 3)).toEqual([undefined, undefined, 'hardline']);
    // Near the end the window stops at the last page; with nothing found it opens at the top.
    expect(openingTop(pagerRows(command, 60, [finding('dangerous', 40)]), 8)).toBe(32);
    expect(openingTop(pagerRows(command, 60, [finding('dangerous')]), 8)).toBe(0);
  });

  it('shows the command with its hidden characters and lookalikes marked', () => {
    expect(pagerRows('echo ＇; rm -rf DIR; echo ＇\x1b[2K', 80).rows).toEqual(['echo ⟨U+FF07⟩; rm -rf DIR; echo ⟨U+FF07⟩⟨ESC⟩[2K']);
  });
});
