import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../state/viewState.ts';
import { overflowing, renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { sessionInfo, tool } from '../testing/viewFixtures.ts';
import { TranscriptEntry } from './TranscriptEntry.tsx';

const draw = (item: TranscriptItem, columns = 80) => renderRows(<TranscriptEntry item={item} width={columns} />, columns);
const styled = (item: TranscriptItem, columns = 80) => renderStyled(<TranscriptEntry item={item} width={columns} />, columns);

describe('TranscriptEntry', () => {
  it('draws a prompt after a cyan mark, in bold, wrapped under itself', () => {
    const item: TranscriptItem = { kind: 'user', id: 1, text: 'please explain why the build fails on CI but passes locally on my machine' };
    expect(draw(item, 40)).toEqual(['', '❯ please explain why the build fails on', '  CI but passes locally on my machine']);
    expect(stylesAt(styled(item), '❯')).toEqual(['bold', 'cyan']);
    expect(stylesAt(styled(item), 'please')).toEqual(['bold']);
  });

  it('draws a reply with a bullet, a continued piece without one, and marks one that did not finish', () => {
    expect(draw({ kind: 'assistant', id: 2, text: 'The cache key changed.', continued: false })).toEqual(['', '● The cache key changed.']);
    expect(draw({ kind: 'assistant', id: 3, text: 'So it rebuilt.', continued: true })).toEqual(['', '  So it rebuilt.']);
    const cut: TranscriptItem = { kind: 'assistant', id: 4, text: 'I was saying', continued: false, status: 'interrupted' };
    expect(draw(cut)).toEqual(['', '● I was saying [interrupted]']);
    expect(stylesAt(styled(cut), '[interrupted]')).toEqual(['yellow']);
    const failed: TranscriptItem = { kind: 'assistant', id: 5, text: 'Partial', continued: false, status: 'error', error: 'rate limited' };
    expect(draw(failed)).toEqual(['', '● Partial [error: rate limited]']);
    expect(stylesAt(styled(failed), '[error')).toEqual(['red']);
  });

  it('wraps a long CJK reply inside the width', () => {
    const rows = draw({ kind: 'assistant', id: 6, text: 'これは長い返事です。'.repeat(6), continued: false }, 40);
    expect(overflowing(rows, 40)).toEqual([]);
    expect(rows.slice(2).every((row) => row.startsWith('  '))).toBe(true);
  });

  it('draws a notice by its level', () => {
    expect(draw({ kind: 'notice', id: 7, level: 'info', text: 'session saved' })).toEqual(['', '· session saved']);
    expect(draw({ kind: 'notice', id: 8, level: 'warn', text: 'context is 90% full' })).toEqual(['', '! context is 90% full']);
    expect(draw({ kind: 'notice', id: 9, level: 'error', text: 'the backend died' })).toEqual(['', '✗ the backend died']);
    expect(stylesAt(styled({ kind: 'notice', id: 9, level: 'error', text: 'x' }), '✗')).toEqual(['red']);
    expect(stylesAt(styled({ kind: 'notice', id: 8, level: 'warn', text: 'x' }), '!')).toEqual(['yellow']);
    expect(stylesAt(styled({ kind: 'notice', id: 7, level: 'info', text: 'x' }), '·')).toEqual(['dim']);
  });

  it('draws a /command with its output plain, a warning yellow and an error red', () => {
    const item: TranscriptItem = { kind: 'command', id: 10, command: '/model gpt-x', output: 'model: gpt-x\nprovider: openai', warning: 'from the next turn', error: 'unknown model' };
    expect(draw(item)).toEqual(['', '❯ /model gpt-x', '  model: gpt-x', '  provider: openai', '  from the next turn', '  unknown model']);
    expect(stylesAt(styled(item), 'from the next')).toEqual(['yellow']);
    expect(stylesAt(styled(item), 'unknown model')).toEqual(['red']);
    expect(stylesAt(styled(item), '❯ /model')).toEqual(['dim']);
  });

  it('draws the header, a tool, a !cmd, the setup and config panels through their components', () => {
    expect(draw({ kind: 'header', id: 11, info: sessionInfo({ cwd: '/srv' }) })[0]).toBe('⚕ hermes 0.1.0');
    expect(draw({ kind: 'tool', id: 12, tool: tool({ summary: 'ok' }) })).toEqual(['  ✓ terminal ls -la · 420ms — ok']);
    expect(draw({ kind: 'shell', id: 13, command: 'ls', stdout: 'a.txt\n', stderr: '', code: 0 })).toEqual(['  a.txt']);
    expect(draw({ kind: 'setup', id: 14, hint: 'set a model' }).join('\n')).toContain('No model is configured');
    expect(draw({ kind: 'config', id: 15, problems: [{ kind: 'unknown_key', text: 'config.yaml line 1: modle?' }] }).join('\n')).toContain('config.yaml line 1: modle?');
  });
});
