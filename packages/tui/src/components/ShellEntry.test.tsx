import { describe, expect, it } from 'vitest';
import { renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { ShellEntry } from './ShellEntry.tsx';

describe('ShellEntry', () => {
  it('shows stdout, then stderr in red, colour codes removed, and the exit code when it is not 0', () => {
    const result = { stdout: '\x1b[32mok\x1b[0m line\n\nsecond\n', stderr: 'warning: careful\n', code: 2 };
    expect(renderRows(<ShellEntry result={result} />, 60)).toEqual(['  ok line', '', '  second', '  warning: careful', '  exit 2']);
    const styled = renderStyled(<ShellEntry result={result} />, 60);
    expect(stylesAt(styled, 'ok line')).toEqual([]);
    expect(stylesAt(styled, 'warning: careful')).toEqual(['dim', 'red']);
    expect(stylesAt(styled, 'exit 2')).toEqual(['red']);
  });

  it('says "(no output)" for a silent success, and why the gate refused a blocked command (not the advice for the model)', () => {
    expect(renderRows(<ShellEntry result={{ stdout: '', stderr: '', code: 0 }} />, 60)).toEqual(['  (no output)']);
    const blocked = { stdout: '', stderr: 'BLOCKED: rm -rf / deletes everything. Do not retry it.', code: 126 };
    expect(renderRows(<ShellEntry result={blocked} />, 60)).toEqual(['  ⊘ blocked: rm -rf / deletes everything.']);
  });

  it('folds long output with "+N more lines", stderr keeping a share, and wraps long lines at 40 columns', () => {
    const stdout = Array.from({ length: 40 }, (_, i) => `out ${i + 1}`).join('\n');
    const stderr = Array.from({ length: 5 }, (_, i) => `err ${i + 1}`).join('\n');
    const rows = renderRows(<ShellEntry result={{ stdout, stderr, code: 1 }} />, 60);
    expect(rows).toContain('  +26 more lines');
    expect(rows.slice(-6)).toEqual(['  err 1', '  err 2', '  err 3', '  err 4', '  err 5', '  exit 1']);
    const wide = renderRows(<ShellEntry result={{ stdout: 'word '.repeat(12), stderr: '', code: 0 }} />, 40);
    expect(wide).toHaveLength(2);
    expect(wide.every((row) => row.startsWith('  word'))).toBe(true);
  });

  it('ends a stopped command with "⊘ stopped" in yellow, the reason and its exit code, instead of the raw marker', () => {
    const result = { stdout: 'started\n', stderr: 'some warning\n[stopped: interrupted by the user]', code: 1 };
    expect(renderRows(<ShellEntry result={result} />, 60)).toEqual(['  started', '  some warning', '  ⊘ stopped: interrupted by the user · exit 1']);
    expect(stylesAt(renderStyled(<ShellEntry result={result} />, 60), '⊘ stopped')).toEqual(['yellow']);
    // Silent until stopped: no "(no output)" under it.
    expect(renderRows(<ShellEntry result={{ stdout: '', stderr: '[stopped: hermes stopped: SIGTERM]', code: 1 }} />, 60)).toEqual([
      '  ⊘ stopped: hermes stopped: SIGTERM · exit 1',
    ]);
  });
});
