import { describe, expect, it } from 'vitest';
import type { ApprovalFinding } from '@hermes/rpc-server/protocol';
import { cardCommand, lineExcerpt, type CommandRow } from './cardCommand.ts';
import type { FindingLevel } from './findingLines.ts';

const lines = (count: number) => Array.from({ length: count }, (_, i) => `echo ${i + 1}`);
const at = (...numbers: number[]) => new Map<number, FindingLevel>(numbers.map((line) => [line, 'dangerous']));
const shown = (rows: readonly CommandRow[]) =>
  rows.map((row) => (row.kind === 'text' ? `${row.gutter ?? ''}${row.text}` : row.kind === 'fold' ? `… ${row.lines}` : `+${row.rows}`));

describe('lineExcerpt', () => {
  it('shows every line holding a finding, numbered, even with no rows to spare, and folds the others in order', () => {
    expect(shown(lineExcerpt(lines(10), at(5), 40, 0))).toEqual(['… 4', ' 5│ echo 5', '… 5']);
    expect(shown(lineExcerpt(lines(100), at(1, 50, 100), 40, 0))).toEqual(['  1│ echo 1', '… 48', ' 50│ echo 50', '… 49', '100│ echo 100']);
  });

  it('shows a lone line rather than a fold of one line, which takes the same row', () => {
    expect(shown(lineExcerpt(lines(3), at(1, 3), 40, 0))).toEqual(['1│ echo 1', '2│ echo 2', '3│ echo 3']);
  });

  it('spends spare rows on the first line, then on the lines around each finding, never past the budget', () => {
    expect(shown(lineExcerpt(lines(100), at(50), 40, 4))).toEqual(['  1│ echo 1', '… 48', ' 50│ echo 50', '… 50']);
    expect(shown(lineExcerpt(lines(100), at(50), 40, 6))).toEqual(['  1│ echo 1', '… 47', ' 49│ echo 49', ' 50│ echo 50', ' 51│ echo 51', '… 49']);
    expect(shown(lineExcerpt(lines(6), at(3), 40, 99))).toEqual(lines(6).map((line, i) => `${i + 1}│ ${line}`));
  });

  it('gives the lines holding a finding their level, and cuts any line too wide with "…"', () => {
    const rows = lineExcerpt(['echo a', `rm -rf ${'x'.repeat(50)}`], new Map([[2, 'hardline']]), 20, 9);
    expect(rows).toEqual([
      { kind: 'text', gutter: '1│ ', text: 'echo a' },
      { kind: 'text', gutter: '2│ ', text: `rm -rf ${'x'.repeat(9)}…`, level: 'hardline' },
    ]);
  });
});

describe('cardCommand', () => {
  const finding = (line?: number): ApprovalFinding => ({ level: 'dangerous', rule: 'r', target: 't', why: 'w', ...(line ? { line } : {}) });

  it('numbers lines only when a finding names one of a command of several lines', () => {
    expect(cardCommand('rm -rf x', [finding(1)], 40).rows(5)).toEqual([{ kind: 'text', text: 'rm -rf x' }]);
    expect(shown(cardCommand(lines(20).join('\n'), [finding()], 40).rows(3))).toEqual(['echo 1', 'echo 2', '+18']);
    expect(shown(cardCommand(lines(20).join('\n'), [finding(99)], 40).rows(3))).toEqual(['echo 1', 'echo 2', '+18']);
    expect(shown(cardCommand(lines(20).join('\n'), [finding(), finding(12)], 40).rows(3))).toEqual(['… 11', '12│ echo 12', '… 8']);
  });

  it('needs the rows of the lines holding findings whatever the space', () => {
    const command = cardCommand(lines(200).join('\n'), [finding(1), finding(35), finding(35), finding(200)], 40);
    expect(command.least).toBe(5);
    expect(command.rows(0)).toHaveLength(5);
  });
});
