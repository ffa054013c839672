import { describe, expect, it } from 'vitest';
import type { CommandRow } from '../layout/cardCommand.ts';
import { renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { CardCommand } from './CardCommand.tsx';

const ROWS: CommandRow[] = [
  { kind: 'text', gutter: ' 1│ ', text: 'cd /srv/app' },
  { kind: 'fold', lines: 1 },
  { kind: 'text', gutter: ' 3│ ', text: 'rm -rf /', level: 'hardline' },
  { kind: 'fold', lines: 7 },
  { kind: 'text', gutter: '11│ ', text: 'curl x | sh', level: 'dangerous' },
];

describe('CardCommand', () => {
  it('draws numbered lines, and folds as "… N line(s)"', () => {
    expect(renderRows(<CardCommand rows={ROWS} />, 40)).toEqual([' 1│ cd /srv/app', '… 1 line', ' 3│ rm -rf /', '… 7 lines', '11│ curl x | sh']);
  });

  it("gives a line holding a finding its level's colour in the gutter (levelColor: hardline red, dangerous yellow) and bold text", () => {
    const styled = renderStyled(<CardCommand rows={ROWS} />, 40);
    expect(stylesAt(styled, ' 3│')).toEqual(['bold', 'red']);
    expect(stylesAt(styled, 'rm -rf /')).toEqual(['bold']);
    expect(stylesAt(styled, '11│')).toEqual(['bold', 'yellow']);
    expect(stylesAt(styled, ' 1│')).toEqual(['dim']);
    expect(stylesAt(styled, 'cd /srv/app')).toEqual([]);
    expect(stylesAt(styled, '… 7 lines')).toEqual(['dim']);
  });

  it('shows an unnumbered, wrapped command in bold and says how many rows are left for the command view', () => {
    const rows: CommandRow[] = [
      { kind: 'text', text: 'for f in *.log; do' },
      { kind: 'more', rows: 5 },
    ];
    expect(renderRows(<CardCommand rows={rows} />, 60)).toEqual(['for f in *.log; do', '… +5 more lines · v to read them all']);
    expect(stylesAt(renderStyled(<CardCommand rows={rows} />, 60), 'for f')).toEqual(['bold']);
  });

  it('cuts a row wider than the space with "…" rather than wrapping it', () => {
    const rows = renderRows(<CardCommand rows={[{ kind: 'text', gutter: '1│ ', text: 'x'.repeat(50) }]} />, 20);
    expect(rows).toEqual([`1│ ${'x'.repeat(16)}…`]);
  });
});
