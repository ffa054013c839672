import type { TranscriptMessage } from '@hermes/rpc-server/protocol';
import { describe, expect, it } from 'vitest';
import { formatSearchHits, formatSessionTable, formatTranscript, partialSearchNote } from './transcriptText.ts';

const MESSAGES: TranscriptMessage[] = [
  { role: 'user', text: 'What is in the folder?' },
  { role: 'assistant', text: 'Let me look.', tool_calls: [{ id: 'c1', name: 'terminal', arguments: '{"command":"ls"}' }] },
  { role: 'tool', text: 'a.txt\n```\nb.txt', name: 'terminal', tool_call_id: 'c1' },
  { role: 'assistant', text: 'Two files', status: 'interrupted' },
];

describe('sessions as text', () => {
  it('prints a transcript to read, tool calls on their own lines', () => {
    const text = formatTranscript(MESSAGES);
    expect(text).toContain('you: What is in the folder?\n\nhermes: Let me look.\n  ⚙ terminal ls');
    expect(text).toContain('↳ terminal result: a.txt ``` b.txt');
    expect(text).toContain('hermes: [interrupted] Two files');
  });

  it('lists sessions as an aligned table, a missing title replaced by the first prompt', () => {
    const table = formatSessionTable([
      { id: 'long-id-1', title: 'Deploy', preview: 'x', started_at: 1_700_000_000, message_count: 12, source: 'tui' },
      { id: 's2', title: null, preview: 'tell me about\nzanzibarite', started_at: 1_700_000_000, message_count: 2, source: 'tui' },
    ]);
    const lines = table.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STARTED\s+MESSAGES\s+TITLE$/);
    expect(lines[1]).toMatch(/^long-id-1\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+12\s+Deploy$/);
    expect(lines[2]).toMatch(/^s2\s+.*\s+2\s+tell me about zanzibarite$/);
    expect(lines[1].indexOf('Deploy')).toBe(lines[2].indexOf('tell me'));
    expect(formatSessionTable([])).toBe('no saved sessions yet\n');
  });

  it('prints search hits with the session id, role and snippet', () => {
    const out = formatSearchHits([{ session_id: 's2', title: null, role: 'user', snippet: 'about [zanzibarite]', timestamp: 1_700_000_000 }]);
    expect(out.split('\n')[1]).toMatch(/^s2\s+user\s+.*about \[zanzibarite\]$/);
    expect(formatSearchHits([])).toBe('no matches\n');
  });

  it('says how far back a search for text too short for an index read, and how to read it all', () => {
    expect(partialSearchNote(1_700_000_000)).toMatch(/^only messages since \d{4}-\d\d-\d\d \d\d:\d\d.* were searched: text this short has no index; add --all to read every message\n$/);
  });
});
