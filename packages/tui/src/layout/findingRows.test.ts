import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import type { ApprovalFinding } from '@hermes/rpc-server/protocol';
import { findingRow, findingRows, findingsCut } from './findingRows.ts';

const DELETE: ApprovalFinding = { level: 'dangerous', rule: 'delete.recursive', target: 'outside the working tree', why: 'deletes /srv/data and everything in it' };
const SHORT: ApprovalFinding = { level: 'hardline', rule: 'rm', target: '/', why: 'deletes everything' };

describe('finding rows', () => {
  it('writes a finding as rule · target — why, with its hidden characters marked', () => {
    expect(findingRow(DELETE)).toBe('delete.recursive · outside the working tree — deletes /srv/data and everything in it');
    expect(findingRow({ level: 'dangerous', rule: 'exec', target: 'x', why: 'runs ＇x\u200B＇\nnext' })).toBe('exec · x — runs ⟨U+FF07⟩x⟨U+200B⟩⟨U+FF07⟩⟨LF⟩next');
  });

  it('gives each finding one row, cut with "…", when there is no row to spare', () => {
    // ⚠ and the em dash take one column each, ⛔ two (as string-width, Ink and the terminal count them): the cut row fills all 56.
    const rows = findingRows([SHORT, DELETE], 56);
    expect(rows).toEqual([
      { level: 'hardline', rows: ['⛔ rm · / — deletes everything'] },
      { level: 'dangerous', rows: ['⚠ delete.recursive · outside the working tree — deletes…'] },
    ]);
    expect(stringWidth(rows[1]!.rows[0]!)).toBe(56);
  });

  it('lets the why of a cut finding go on to a second row, for as many as it is given', () => {
    expect(findingsCut([SHORT, DELETE, DELETE], 56)).toBe(2);
    const rows = findingRows([SHORT, DELETE, DELETE], 56, 1).map((finding) => finding.rows);
    expect(rows).toEqual([
      ['⛔ rm · / — deletes everything'],
      ['⚠ delete.recursive · outside the working tree — deletes', '  /srv/data and everything in it'],
      ['⚠ delete.recursive · outside the working tree — deletes…'],
    ]);
  });
});
