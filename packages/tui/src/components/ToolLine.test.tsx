import { describe, expect, it } from 'vitest';
import { overflowing, renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { tool } from '../testing/viewFixtures.ts';
import { formatDuration, TOOL_DIFF_ROWS, ToolLine } from './ToolLine.tsx';

describe('ToolLine', () => {
  it('marks each finished status with its symbol and colour, and says what came of it', () => {
    const cases = [
      { fields: { status: 'done' as const, summary: '12 files' }, row: '  ✓ terminal ls -la · 420ms — 12 files', mark: '✓', styles: ['green'] },
      { fields: { status: 'failed' as const, error: 'exit 2:\nno such file', durationS: 3.25 }, row: '  ✗ terminal ls -la · 3.3s — exit 2: no such file', mark: '✗', styles: ['red'] },
      { fields: { status: 'blocked' as const, error: 'rm -rf / deletes everything' }, row: '  ⊘ terminal ls -la — blocked: rm -rf / deletes everything', mark: '⊘', styles: ['red'] },
      { fields: { status: 'interrupted' as const, durationS: 75 }, row: '  ⊘ terminal ls -la · 1m15s — interrupted', mark: '⊘', styles: ['yellow'] },
    ];
    for (const { fields, row, mark, styles } of cases) {
      const line = <ToolLine tool={tool(fields)} width={80} />;
      expect(renderRows(line, 80)).toEqual([row]);
      expect(stylesAt(renderStyled(line, 80), mark), fields.status).toEqual(styles);
    }
    // The outcome of a failure is red; a summary is dim.
    expect(stylesAt(renderStyled(<ToolLine tool={tool({ status: 'failed', error: 'boom' })} width={80} />, 80), '— boom')).toEqual(['red']);
    expect(stylesAt(renderStyled(<ToolLine tool={tool({ summary: '12 files' })} width={80} />, 80), '— 12 files')).toEqual(['dim']);
  });

  it('while running shows a spinner and the newest line of its output under it', () => {
    const rows = renderRows(<ToolLine tool={tool({ status: 'running', durationS: undefined, preview: 'building a\nbuilding b\n\n' })} width={80} />, 80);
    expect(rows).toEqual(['  ⠋ terminal ls -la', '    building b']);
  });

  it('keeps one row at 40 columns, cut with "…"', () => {
    const rows = renderRows(<ToolLine tool={tool({ context: 'find / -name "*.log" -mtime +30 -delete', summary: 'removed 3 files' })} width={40} />, 40);
    expect(rows).toEqual(['  ✓ terminal find / -name "*.log" -mtim…']);
  });

  it('cuts CJK at the edge within the width, wherever a wide character falls (Ink\'s own cut can run one column over)', () => {
    const context = '你想要哪种颜色的主题呢这是一个很长的问题需要换行显示在窄终端上面';
    for (const columns of [57, 58, 59, 60, 61]) {
      const rows = renderRows(<ToolLine tool={tool({ name: 'clarify', context, summary: undefined, durationS: undefined })} width={columns} />, columns);
      expect(rows).toHaveLength(1);
      expect(overflowing(rows, columns), `at ${columns} columns`).toEqual([]);
      expect(rows[0]).toMatch(/…$/);
    }
  });

  it('follows a finished file change with its diff, folded', () => {
    const diff = ['--- a/x', '+++ b/x', '@@ -1 +1 @@', ...Array.from({ length: 20 }, (_, i) => `+line ${i}`)].join('\n');
    const rows = renderRows(<ToolLine tool={tool({ name: 'write_file', context: 'x', diff })} width={80} />, 80);
    expect(rows[1]).toBe('    --- a/x');
    expect(rows).toHaveLength(1 + TOOL_DIFF_ROWS);
    expect(rows.at(-1)).toBe('    … +12 more lines');
    expect(renderRows(<ToolLine tool={tool({ status: 'running', diff })} width={80} />, 80)).toHaveLength(1);
  });

  it('formats durations', () => {
    expect([0.0004, 0.42, 3.25, 59.9, 61, 3600].map(formatDuration)).toEqual(['0ms', '420ms', '3.3s', '59.9s', '1m1s', '60m0s']);
  });
});
