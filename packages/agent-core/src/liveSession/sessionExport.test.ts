/** The one exporter (what /save, session.export and `hermes sessions export` write). */
import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../contract/transcript.ts';
import type { StoredMessage, StoredSession } from '../sessions/sessionStore.ts';
import { exportConversation, toHtml, toJson, toMarkdown, toTranscript } from './sessionExport.ts';

const MESSAGES: TranscriptMessage[] = [
  { role: 'user', text: 'What is in the folder?' },
  { role: 'assistant', text: 'Let me look.', tool_calls: [{ id: 'c1', name: 'terminal', arguments: '{"command":"ls"}' }] },
  { role: 'tool', text: 'a.txt\n```\nb.txt', name: 'terminal', tool_call_id: 'c1' },
  { role: 'assistant', text: 'Two files', status: 'interrupted' },
];
const SESSION = { id: 'abc123', title: 'Folder tour', message_count: 4, started_at: 1_700_000_000, model: 'm', provider: 'p' };

describe('the exporter', () => {
  it('exports Markdown with roles as headings and tool calls and results as code blocks', () => {
    const md = toMarkdown(SESSION, MESSAGES);
    expect(md.startsWith('# Folder tour\n\n- Session: `abc123`\n- Started: ')).toBe(true);
    expect(md).toContain('- Model: p/m\n- Messages: 4');
    expect(md).toContain('## User\n\nWhat is in the folder?');
    expect(md).toContain('## Assistant\n\nLet me look.\n\nTool call: `terminal`\n\n```json\n{\n  "command": "ls"\n}\n```');
    // The result holds a fence of its own, so its block needs a longer one.
    expect(md).toContain('### Tool result: terminal\n\n````\na.txt\n```\nb.txt\n````');
    expect(md).toContain('## Assistant (interrupted)\n\nTwo files');
  });

  it('titles an untitled export by its id', () => {
    expect(toMarkdown({ id: 'x1', title: null, message_count: 0 }, [])).toBe('# Session x1\n\n- Session: `x1`\n- Messages: 0\n');
  });

  it('exports JSON as {session, messages}, and HTML as an escaped page', () => {
    expect(JSON.parse(toJson(SESSION, MESSAGES))).toEqual({ session: SESSION, messages: MESSAGES });
    expect(toHtml({ ...SESSION, title: '<b>' }, [])).toMatch(/^<!doctype html><meta charset="utf-8"><title>&lt;b&gt;<\/title><pre># &lt;b&gt;\n/);
  });

  it('reads stored rows as the client does: a reply cut off mid-stream is interrupted', () => {
    const stored = { id: 's1', title: null, source: 'tui', model: 'm', provider: null, cwd: '/w', started_at: 1_700_000_000 } as StoredSession;
    const rows: StoredMessage[] = [
      { id: 1, sessionId: 's1', timestamp: 1, role: 'user', content: 'hi' },
      { id: 2, sessionId: 's1', timestamp: 2, role: 'assistant', content: 'hel', status: 'streaming' },
    ];
    expect(toTranscript(rows)[1]).toEqual({ role: 'assistant', text: 'hel', timestamp: 2, row_id: 2, status: 'interrupted' });
    const json = JSON.parse(exportConversation('json', stored, rows)) as { session: object; messages: TranscriptMessage[] };
    expect(json.session).toEqual({ id: 's1', title: null, message_count: 2, started_at: 1_700_000_000, source: 'tui', model: 'm', cwd: '/w' });
    expect(json.messages.map((m) => m.text)).toEqual(['hi', 'hel']);
    expect(exportConversation('md', stored, rows)).toContain('## Assistant (interrupted)\n\nhel');
  });
});
