import { describe, expect, it } from 'vitest';
import { renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { DiffView, diffViewRows } from './DiffView.tsx';

const DIFF = ['--- a/app.ts', '+++ b/app.ts', '@@ -1,3 +1,3 @@', ' import x;', '-const port = 80;', '+const port = 8080;', ' start(port);'].join('\n');

describe('DiffView', () => {
  it('colours each line by what it is: headers dim, hunks cyan, additions green, removals red, context plain', () => {
    const styled = renderStyled(<DiffView diff={DIFF} maxRows={20} />, 60);
    expect(stylesAt(styled, '--- a/app.ts')).toEqual(['dim']);
    expect(stylesAt(styled, '@@ -1,3')).toEqual(['cyan']);
    expect(stylesAt(styled, '+const port')).toEqual(['green']);
    expect(stylesAt(styled, '-const port')).toEqual(['red']);
    expect(stylesAt(styled, ' import x;')).toEqual([]);
  });

  it('folds to its rows with "+N more lines", and cuts long lines rather than wrapping them', () => {
    const rows = renderRows(<DiffView diff={DIFF} maxRows={4} />, 60);
    expect(rows).toEqual(['--- a/app.ts', '+++ b/app.ts', '@@ -1,3 +1,3 @@', '… +4 more lines']);
    expect(diffViewRows(DIFF, 4)).toBe(4);
    expect(renderRows(<DiffView diff={`+${'y'.repeat(40)}`} maxRows={4} />, 20)).toEqual([`+${'y'.repeat(18)}…`]);
  });

  it('marks a hidden bidi character in a changed line, and leaves CJK prose as it is', () => {
    const rows = renderRows(<DiffView diff={'+if (admin) {\u202E } // ok\n+「はい」と言った'} maxRows={4} />, 40);
    expect(rows).toEqual(['+if (admin) {⟨U+202E⟩ } // ok', '+「はい」と言った']);
  });
});
