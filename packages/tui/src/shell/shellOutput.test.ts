import { describe, expect, it } from 'vitest';
import { blockedReason, foldShellOutput, outputLines } from './shellOutput.ts';

const lines = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`).join('\n');

describe('!cmd results', () => {
  it('recognizes a command the approval gate blocked, without the advice meant for the model', () => {
    const stderr =
      'BLOCKED: `rm -rf /tmp/x` was not run: it needs approval (recursive delete) and the user denied it. ' +
      'Do not retry it, rephrase it, or work around it with another command.';
    expect(blockedReason({ stdout: '', stderr, code: 126 })).toBe(
      '`rm -rf /tmp/x` was not run: it needs approval (recursive delete) and the user denied it.',
    );
    // A command that itself exits 126 (not executable) was not blocked.
    expect(blockedReason({ stdout: '', stderr: 'bash: ./x: Permission denied', code: 126 })).toBeUndefined();
    expect(blockedReason({ stdout: 'BLOCKED: no', stderr: '', code: 0 })).toBeUndefined();
  });

  it('drops colour sequences and trailing blank lines, and spells out other control bytes', () => {
    expect(outputLines('\x1b[1;32mok\x1b[0m\n\tx\x07\n\n')).toEqual(['ok', '    x\\x07']);
    expect(outputLines('')).toEqual([]);
  });

  it('keeps short output whole', () => {
    const folded = foldShellOutput({ stdout: 'a\nb\n', stderr: 'warn\n', code: 0 }, 20);
    expect(folded).toEqual({ stdout: { shown: ['a', 'b'], hidden: 0 }, stderr: { shown: ['warn'], hidden: 0 } });
  });

  it('folds long stdout to the budget and counts what it left out', () => {
    const folded = foldShellOutput({ stdout: lines(100, 'line '), stderr: '', code: 0 }, 20);
    expect(folded.stdout.shown).toHaveLength(19);
    expect(folded.stdout.shown.at(-1)).toBe('line 19');
    expect(folded.stdout.hidden).toBe(81);
  });

  it('keeps room for stderr when both streams are long', () => {
    const folded = foldShellOutput({ stdout: lines(100, 'out '), stderr: lines(50, 'err '), code: 1 }, 20);
    expect(folded.stdout.shown.length + 1 + folded.stderr.shown.length + 1).toBe(20);
    expect(folded.stderr.shown[0]).toBe('err 1');
    expect(folded.stderr.hidden).toBeGreaterThan(0);
  });

  it('gives short stderr all its lines next to long stdout', () => {
    const folded = foldShellOutput({ stdout: lines(100, 'out '), stderr: 'fatal: oops', code: 128 }, 20);
    expect(folded.stderr).toEqual({ shown: ['fatal: oops'], hidden: 0 });
    expect(folded.stdout.shown.length + 1).toBe(19);
  });
});
