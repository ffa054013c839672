import type { TranscriptMessage } from '@hermes/rpc-server/protocol';
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_NOTE, itemsFromHistory, toolCallContext, UNANSWERED_NOTE } from './historyItems.ts';

const call = (id: string, name: string, args: object) => ({ id, name, arguments: JSON.stringify(args) });

describe('resumed history', () => {
  it('shows prompts, replies and one done row per tool call with its context', () => {
    const messages: TranscriptMessage[] = [
      { role: 'user', text: 'list files' },
      { role: 'assistant', text: 'Looking.', tool_calls: [call('c1', 'terminal', { command: 'ls -la\n| head' })] },
      { role: 'tool', text: 'a\nb', name: 'terminal', tool_call_id: 'c1' },
      { role: 'assistant', text: 'Two files.' },
    ];
    expect(itemsFromHistory(messages)).toEqual([
      { kind: 'user', text: 'list files' },
      { kind: 'assistant', text: 'Looking.', continued: false, status: undefined },
      { kind: 'tool', tool: { toolId: 'c1', name: 'terminal', context: 'ls -la | head', status: 'done', summary: 'a (+1 lines)', output: 'a\nb' } },
      { kind: 'assistant', text: 'Two files.', continued: false, status: undefined },
    ]);
  });

  it('makes the items of the messages before an index only (the start of a transcript whose end is loaded), calls ending as the later results say', () => {
    const messages: TranscriptMessage[] = [
      { role: 'user', text: 'list files' },
      { role: 'assistant', text: '', tool_calls: [call('c1', 'terminal', { command: 'ls' })] },
      { role: 'tool', text: 'a', name: 'terminal', tool_call_id: 'c1' },
      { role: 'user', text: 'and now?' },
    ];
    expect(itemsFromHistory(messages, 2)).toEqual([
      { kind: 'user', text: 'list files' },
      { kind: 'tool', tool: { toolId: 'c1', name: 'terminal', context: 'ls', status: 'done', summary: 'a', output: 'a' } },
    ]);
    // The note about an unanswered last prompt belongs to the end, which is not among them.
    expect(itemsFromHistory(messages, 3).filter((item) => item.kind === 'notice')).toEqual([]);
  });

  it('marks a reply cut off at the end, and says why', () => {
    const items = itemsFromHistory([
      { role: 'user', text: 'count' },
      { role: 'assistant', text: 'one two', status: 'interrupted' },
    ]);
    expect(items.at(-2)).toEqual({ kind: 'assistant', text: 'one two', continued: false, status: 'interrupted' });
    expect(items.at(-1)).toEqual({ kind: 'notice', level: 'warn', text: INTERRUPTED_NOTE });
  });

  it('does not add the note when the interrupted reply is not the last message', () => {
    const items = itemsFromHistory([
      { role: 'user', text: 'count' },
      { role: 'assistant', text: 'one', status: 'interrupted' },
      { role: 'user', text: 'again' },
      { role: 'assistant', text: 'done' },
    ]);
    expect(items.filter((item) => item.kind === 'notice')).toEqual([]);
  });

  it('shows a call that never got its result as interrupted, and a prompt left unanswered', () => {
    const items = itemsFromHistory([
      { role: 'user', text: 'run it' },
      { role: 'assistant', text: '', tool_calls: [call('c1', 'terminal', { command: 'sleep 100' })] },
      { role: 'user', text: 'hello?' },
    ]);
    expect(items[1]).toMatchObject({ kind: 'tool', tool: { name: 'terminal', status: 'interrupted' } });
    expect(items.at(-1)).toEqual({ kind: 'notice', level: 'warn', text: UNANSWERED_NOTE });
  });

  it('shows a call whose stored result is interrupted (the heal wrote it, or hermes stopped it) as interrupted, not done', () => {
    const items = itemsFromHistory([
      { role: 'user', text: 'run it' },
      { role: 'assistant', text: '', tool_calls: [call('c1', 'terminal', { command: 'sleep 100' }), call('c2', 'terminal', { command: 'ls' })] },
      { role: 'tool', name: 'terminal', tool_call_id: 'c2', text: 'a.txt' },
      { role: 'tool', name: 'terminal', tool_call_id: 'c1', text: 'interrupted: hermes stopped before this tool finished', status: 'interrupted' },
    ]);
    expect(items.filter((item) => item.kind === 'tool').map((item) => item.kind === 'tool' && item.tool.status)).toEqual(['interrupted', 'done']);
  });

  it('rebuilds each row from the stored outcome: blocked, failed, interrupted or done, with its duration, summary, diff and output (for /details tools expanded)', () => {
    const diff = '--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-a\n+b\n';
    const items = itemsFromHistory([
      { role: 'user', text: 'go' },
      {
        role: 'assistant',
        text: '',
        tool_calls: [call('c1', 'terminal', { command: 'rm -rf /' }), call('c2', 'patch', { path: 'x.txt' }), call('c3', 'terminal', { command: 'sleep 30' }), call('c4', 'read_file', { path: 'y' })],
      },
      { role: 'tool', text: 'BLOCKED: denied', name: 'terminal', tool_call_id: 'c1', duration_s: 0.004, blocked: true, error: 'BLOCKED: denied' },
      { role: 'tool', text: 'patched', name: 'patch', tool_call_id: 'c2', duration_s: 0.02, inline_diff: diff },
      { role: 'tool', text: 'partial', name: 'terminal', tool_call_id: 'c3', status: 'interrupted', duration_s: 3.2, error: 'interrupted' },
      { role: 'tool', text: '[TOOL_ERROR] no such file', name: 'read_file', tool_call_id: 'c4', duration_s: 0.001, error: 'no such file' },
      { role: 'assistant', text: 'ok' },
    ]);
    expect(items.filter((item) => item.kind === 'tool').map((item) => item.tool)).toEqual([
      { toolId: 'c1', name: 'terminal', context: 'rm -rf /', status: 'blocked', durationS: 0.004, summary: 'BLOCKED: denied', error: 'BLOCKED: denied', output: 'BLOCKED: denied' },
      { toolId: 'c2', name: 'patch', context: 'x.txt', status: 'done', durationS: 0.02, summary: 'patched', diff, output: 'patched' },
      { toolId: 'c3', name: 'terminal', context: 'sleep 30', status: 'interrupted', durationS: 3.2, summary: 'partial', error: 'interrupted', output: 'partial' },
      { toolId: 'c4', name: 'read_file', context: 'y', status: 'failed', durationS: 0.001, summary: '[TOOL_ERROR] no such file', error: 'no such file', output: '[TOOL_ERROR] no such file' },
    ]);
  });

  it('previews a call from its most telling argument', () => {
    expect(toolCallContext('{"path":"src/a.ts","content":"x"}')).toBe('src/a.ts');
    expect(toolCallContext('{"content":"only this"}')).toBe('only this');
    expect(toolCallContext('{"n":3}')).toBe('{"n":3}');
    expect(toolCallContext('not json')).toBe('not json');
    expect(toolCallContext(JSON.stringify({ command: 'x'.repeat(500) })).length).toBeLessThanOrEqual(120);
  });
});
