import { describe, expect, it } from 'vitest';
import { approvalLayout, clarifyLayout, COMMAND_MAX_ROWS } from './cardLayout.ts';

const ALL = ['once', 'session', 'always', 'deny'] as const;
const longCommand = Array.from({ length: 40 }, (_, i) => `echo line-${i}`).join('\n');
const longDiff = ['--- a/f', '+++ b/f', '@@ -1,30 +1,30 @@', ...Array.from({ length: 30 }, (_, i) => `+added ${i}`)].join('\n');

describe('approvalLayout', () => {
  it('shows a short command whole', () => {
    const layout = approvalLayout({ description: 'recursive delete', command: 'rm -rf build' }, [...ALL], 80, 40);
    expect(layout.command).toEqual({ shown: ['rm -rf build'], hidden: 0 });
  });

  it('folds a long command after a few rows and counts what it hides', () => {
    const layout = approvalLayout({ description: 'x', command: longCommand }, [...ALL], 80, 40);
    expect(layout.command.shown).toHaveLength(COMMAND_MAX_ROWS - 1);
    expect(layout.command.hidden).toBe(40 - (COMMAND_MAX_ROWS - 1));
  });

  it('stays within the rows it is given, even with a long command and diff in a short terminal', () => {
    for (const maxRows of [14, 18, 24, 40]) {
      const layout = approvalLayout({ description: 'overwrites a file', command: longCommand, diff: longDiff }, [...ALL], 60, maxRows);
      expect(layout.rows).toBeLessThanOrEqual(maxRows);
    }
    const roomy = approvalLayout({ description: 'd', command: 'x', diff: longDiff }, [...ALL], 60, 40);
    expect(roomy.diff?.hidden).toBeGreaterThan(0);
    expect(roomy.diff?.shown[0]).toBe('--- a/f');
  });
});

describe('clarifyLayout', () => {
  it('scrolls a long list so the selected option stays visible', () => {
    const layout = clarifyLayout('Pick one', 30, 25, 80, 14);
    expect(layout.rows).toBeLessThanOrEqual(14);
    expect(25).toBeGreaterThanOrEqual(layout.firstOption);
    expect(25).toBeLessThan(layout.firstOption + layout.optionRows);
  });

  it('shows every option when they fit', () => {
    expect(clarifyLayout('Which colour?', 3, 0, 80, 30)).toMatchObject({ firstOption: 0, optionRows: 3 });
  });
});
