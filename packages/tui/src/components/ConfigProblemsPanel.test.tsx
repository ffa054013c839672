import { describe, expect, it } from 'vitest';
import { insideBorder, renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { ConfigProblemsPanel } from './ConfigProblemsPanel.tsx';

describe('ConfigProblemsPanel', () => {
  it('says what is wrong in a yellow headline, then each problem with its fix', () => {
    const problems = [
      { kind: 'value' as const, text: 'config.yaml line 4: max_turns must be a number; write max_turns: 50' },
      { kind: 'unknown_key' as const, text: 'config.yaml line 9: modle is not a setting; did you mean model?' },
    ];
    const rows = renderRows(<ConfigProblemsPanel problems={problems} />, 80);
    expect(insideBorder(rows.slice(1))).toEqual(['config.yaml has a setting hermes cannot use: its default applies', problems[0]!.text, problems[1]!.text]);
    expect(stylesAt(renderStyled(<ConfigProblemsPanel problems={problems} />, 80), 'config.yaml has')).toEqual(['bold', 'yellow']);
  });

  it('wraps a long problem inside the border at 40 columns', () => {
    const problems = [{ kind: 'syntax' as const, text: 'config.yaml line 2: a tab before "model"; YAML indents with spaces only' }];
    const rows = renderRows(<ConfigProblemsPanel problems={problems} />, 40);
    expect(rows.every((row, index) => index === 0 || /^[│╭╰].*[│╮╯]$/.test(row))).toBe(true);
    expect(insideBorder(rows.slice(1)).join(' ')).toContain('a tab before "model"; YAML indents with spaces only');
  });
});
