import { describe, expect, it } from 'vitest';
import { diffLineKind, diffRows, foldRows, foldedRows, truncateRow, wrapRows } from './foldRows.ts';
import { revealText } from './visibleText.ts';

describe('wrapRows', () => {
  it('breaks after spaces, and anywhere inside a word longer than the width', () => {
    expect(wrapRows('rm -rf build dist', 8)).toEqual(['rm -rf', 'build', 'dist']);
    expect(wrapRows('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('keeps the text\'s own line breaks and counts wide characters as two columns', () => {
    expect(wrapRows('one\ntwo', 10)).toEqual(['one', 'two']);
    expect(wrapRows('日本語日本', 4)).toEqual(['日本', '語日', '本']);
  });

  it('never splits a marker for a hidden character between two rows', () => {
    const rows = wrapRows(revealText('＇＇＇＇＇＇'), 24);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) expect(row).toMatch(/^(⟨U\+FF07⟩)+$/);
  });
});

describe('widths as the terminal draws them', () => {
  it('keeps an emoji with a skin tone, a family emoji or an accented letter in one piece and measures it whole', () => {
    expect(wrapRows('👍🏽👍🏽👍🏽', 4)).toEqual(['👍🏽👍🏽', '👍🏽']);
    expect(wrapRows('e\u0301'.repeat(10), 5)).toEqual(['e\u0301'.repeat(5), 'e\u0301'.repeat(5)]);
    expect(truncateRow('👨‍👩‍👧 family', 9)).toBe('👨‍👩‍👧 family');
  });

  it('counts a marker by its columns: its brackets take one each', () => {
    expect(truncateRow(revealText('echo ＇hi＇'), 24)).toBe('echo ⟨U+FF07⟩hi⟨U+FF07⟩');
  });
});

describe('truncateRow', () => {
  it('keeps a row that fits, and cuts one that does not with "…", never inside a marker', () => {
    expect(truncateRow('rm -rf build', 12)).toBe('rm -rf build');
    expect(truncateRow('rm -rf build', 10)).toBe('rm -rf bu…');
    expect(truncateRow(revealText('rm ＇x＇'), 19)).toBe('rm ⟨U+FF07⟩x…');
    expect(truncateRow('日本語日本', 6)).toBe('日本…');
  });
});

describe('foldRows', () => {
  it('keeps rows that fit, and otherwise leaves the last row for the "+N more lines" marker', () => {
    expect(foldRows(['a', 'b'], 3)).toEqual({ shown: ['a', 'b'], hidden: 0 });
    const folded = foldRows(['1', '2', '3', '4', '5'], 3);
    expect(folded).toEqual({ shown: ['1', '2'], hidden: 3 });
    expect(foldedRows(folded)).toBe(3);
  });
});

describe('diff lines', () => {
  it('classifies unified diff lines for colouring', () => {
    const diff = '--- a/x.ts\n+++ b/x.ts\n@@ -1,2 +1,2 @@\n-old\n+new\n same\n';
    expect(diffRows(diff).map(diffLineKind)).toEqual(['header', 'header', 'hunk', 'remove', 'add', 'context']);
  });

  it('marks hidden characters in a diff (a bidi override reorders code), but not fullwidth prose', () => {
    expect(diffRows('+if (admin) {\u202E } \u2066// check\n+「はい」，')).toEqual(['+if (admin) {⟨U+202E⟩ } ⟨U+2066⟩// check', '+「はい」，']);
  });
});
