import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from './schema.ts';
import { SessionStore, toChatMessages } from './sessionStore.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const tmpDb = () => path.join(tempDir('hermes-store-'), 'state.db');

describe('SessionStore', () => {
  it('creates a private WAL database at the current schema', () => {
    const file = tmpDb();
    const store = SessionStore.open(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    store.close();
  });

  it('stores messages in order with tool calls, and counts them', () => {
    const file = tmpDb();
    const store = SessionStore.open(file);
    store.createSession({ id: 's1', model: 'm', provider: 'custom', cwd: '/tmp' });
    const call = { id: 'c1', type: 'function' as const, function: { name: 'read_file', arguments: '{"path":"x"}' } };
    store.appendMessage('s1', { role: 'user', content: 'hi' });
    store.appendMessage('s1', { role: 'assistant', content: 'looking', toolCalls: [call], status: 'complete' });
    store.appendMessage('s1', { role: 'tool', content: 'data', toolName: 'read_file', toolCallId: 'c1' });
    store.close();
    const reopened = SessionStore.open(file);
    const messages = reopened.messages('s1');
    expect(toChatMessages(messages)).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'looking', tool_calls: [call] },
      { role: 'tool', tool_call_id: 'c1', content: 'data' },
    ]);
    expect(reopened.getSession('s1')).toMatchObject({ message_count: 3, tool_call_count: 1 });
    reopened.close();
  });

  it('keeps how a tool call ended with its result, in a reopened store and in a branch', () => {
    const file = tmpDb();
    const store = SessionStore.open(file);
    store.createSession({ id: 's1' });
    const diff = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n';
    store.appendMessage('s1', { role: 'tool', content: 'denied', toolName: 'terminal', toolCallId: 'c1', toolOutcome: { durationS: 0.012, error: 'denied', blocked: true } });
    store.appendMessage('s1', { role: 'tool', content: 'ok', toolName: 'patch', toolCallId: 'c2', toolOutcome: { durationS: 1.5, inlineDiff: diff } });
    store.appendMessage('s1', { role: 'tool', content: 'older', toolName: 'terminal', toolCallId: 'c3' });
    store.close();
    const reopened = SessionStore.open(file);
    reopened.branchSession('s1', 's2');
    for (const id of ['s1', 's2'])
      expect(reopened.messages(id).map((m) => m.toolOutcome)).toEqual([
        { durationS: 0.012, error: 'denied', blocked: true },
        { durationS: 1.5, inlineDiff: diff },
        undefined,
      ]);
    reopened.close();
  });

  it('refuses to append to a session that does not exist, writing nothing', () => {
    const store = SessionStore.open(tmpDb());
    expect(() => store.appendMessage('ghost', { role: 'user', content: 'x' })).toThrow();
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 0 });
    store.close();
  });

  it('refuses a database from a newer hermes with a message saying what to do', () => {
    const file = tmpDb();
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    db.close();
    expect(() => SessionStore.open(file)).toThrow(/written by a newer hermes.*Upgrade hermes/);
  });
});
