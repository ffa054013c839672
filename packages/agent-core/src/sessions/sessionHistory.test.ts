import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionStore, StoreError } from './sessionStore.ts';
import { titlePrefilter } from './sessionList.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const open = () => SessionStore.open(path.join(tempDir('hermes-history-'), 'state.db'));
const call = { id: 'c1', type: 'function' as const, function: { name: 'terminal', arguments: '{"command":"ls"}' } };

/** A session of two turns; the second turn has a tool call. */
function twoTurns(store: SessionStore, id = 's1'): void {
  store.createSession({ id, title: 'Two turns' });
  store.appendMessage(id, { role: 'user', content: 'first question about otters' });
  store.appendMessage(id, { role: 'assistant', content: 'first answer' });
  store.appendMessage(id, { role: 'user', content: 'second question about walruses' });
  store.appendMessage(id, { role: 'assistant', content: 'checking', toolCalls: [call] });
  store.appendMessage(id, { role: 'tool', content: 'walruses.txt', toolName: 'terminal', toolCallId: 'c1' });
  store.appendMessage(id, { role: 'assistant', content: 'found the walruses' });
}

describe('branchSession', () => {
  it('copies every message in order with tool calls, points at its parent and counts right', () => {
    const store = open();
    twoTurns(store);
    const branch = store.branchSession('s1', 'b1', { title: 'Branch' });
    expect(branch).toMatchObject({ id: 'b1', title: 'Branch', parent_session_id: 's1', message_count: 6, tool_call_count: 1 });
    const strip = (id: string) => store.messages(id).map(({ id: _, sessionId: __, ...rest }) => rest);
    expect(strip('b1')).toEqual(strip('s1'));
    // The branch is searchable on its own, and the source is untouched.
    expect(store.search('walruses', { sessionId: 'b1' }).length).toBeGreaterThan(0);
    expect(store.getSession('s1')).toMatchObject({ message_count: 6, parent_session_id: null });
    expect(() => store.branchSession('ghost', 'b2')).toThrow(StoreError);
    expect(() => store.branchSession('s1', 'b1')).toThrow(/session with id b1 already exists/);
    store.close();
  });
});

describe('undoLastTurn', () => {
  it('removes the last user message and everything after it, in the counts and the index too', () => {
    const store = open();
    twoTurns(store);
    expect(store.undoLastTurn('s1')).toEqual({ removed: 4, text: 'second question about walruses' });
    expect(store.messages('s1').map((m) => m.content)).toEqual(['first question about otters', 'first answer']);
    expect(store.getSession('s1')).toMatchObject({ message_count: 2, tool_call_count: 0 });
    expect(store.search('walruses')).toEqual([]);
    expect(store.search('otters')).toHaveLength(1);
    expect(store.undoLastTurn('s1')).toEqual({ removed: 2, text: 'first question about otters' });
    expect(store.undoLastTurn('s1')).toEqual({ removed: 0, text: '' });
    expect(store.getSession('s1')).toMatchObject({ message_count: 0 });
    store.close();
  });
});

describe('deleteSession', () => {
  it('deletes the session with its messages and decisions; a branch keeps existing without parent', () => {
    const store = open();
    twoTurns(store);
    store.branchSession('s1', 'child');
    store.recordApproval({ sessionId: 's1', toolName: 'terminal', command: 'rm x', patternKey: 'rm', choice: 'once', at: 1 });
    expect(store.deleteSession('s1')).toBe(true);
    expect(store.deleteSession('s1')).toBe(false);
    expect(store.getSession('s1')).toBeUndefined();
    expect(store.messages('s1')).toEqual([]);
    expect(store.approvalDecisions('s1')).toEqual([]);
    expect(store.getSession('child')).toMatchObject({ parent_session_id: null, message_count: 6 });
    expect(store.search('otters').map((h) => h.sessionId)).toEqual(['child']);
    store.close();
  });
});

describe('findSession', () => {
  it('finds by exact id, then exact title, then a unique id prefix', () => {
    const store = open();
    store.createSession({ id: '20250101-abc', title: 'Refactor' });
    store.createSession({ id: '20250101-abd', title: '20250101-abc-title' });
    store.createSession({ id: 'Refactor-id' });
    expect(store.findSession('20250101-abc')?.title).toBe('Refactor');
    expect(store.findSession('Refactor')?.id).toBe('20250101-abc');
    expect(store.findSession('20250101-abc-title')?.id).toBe('20250101-abd');
    expect(store.findSession('Refac')?.id).toBe('Refactor-id');
    expect(store.findSession('20250101-ab')).toBeUndefined();
    expect(store.findSession('nope')).toBeUndefined();
    expect(store.findSession('')).toBeUndefined();
    store.close();
  });
});

describe('listSessions', () => {
  it('lists newest activity first with a one-line preview of the first user message', () => {
    const store = open();
    store.createSession({ id: 'a', title: 'Alpha' });
    store.createSession({ id: 'b', title: 'Beta' });
    store.createSession({ id: 'empty' });
    store.appendMessage('b', { role: 'assistant', content: 'greeting first' });
    store.appendMessage('b', { role: 'user', content: `multi\n  line ${'long '.repeat(40)}` });
    store.appendMessage('a', { role: 'user', content: 'short one' });
    // Appends within one millisecond tie; pin the activity times the order is about.
    const active = store.db.prepare('UPDATE sessions SET last_active = ? WHERE id = ?');
    [['empty', 100], ['b', 200], ['a', 300]].forEach(([id, t]) => active.run(t, id));
    // A session opened and left without a message or a title is noise in a list.
    expect(store.listSessions().map((s) => s.id)).toEqual(['a', 'b']);
    const list = store.listSessions({ includeEmpty: true });
    expect(list.map((s) => s.id)).toEqual(['a', 'b', 'empty']);
    expect(list[0]).toMatchObject({ title: 'Alpha', preview: 'short one', message_count: 1, source: 'tui', parent_session_id: null });
    expect(list[1]!.preview).toMatch(/^multi line long long .*…$/);
    expect([...list[1]!.preview]).toHaveLength(80);
    expect(list[2]!.preview).toBe('');
    expect(store.listSessions({ limit: 1 }).map((s) => s.id)).toEqual(['a']);
    store.close();
  });

  it('filters by title (any case) or by a message matching the query', () => {
    const store = open();
    store.createSession({ id: 'x', title: 'Kubernetes upgrade' });
    store.createSession({ id: 'y', title: 'Lunch' });
    store.createSession({ id: 'z' });
    store.appendMessage('y', { role: 'user', content: 'is kubernetes down again?' });
    store.appendMessage('z', { role: 'user', content: '数据库迁移方案' });
    expect(store.listSessions({ query: 'KUBER' }).map((s) => s.id).sort()).toEqual(['x', 'y']);
    expect(store.listSessions({ query: 'kubernetes' }).map((s) => s.id).sort()).toEqual(['x', 'y']);
    expect(store.listSessions({ query: '迁移' }).map((s) => s.id)).toEqual(['z']);
    expect(store.listSessions({ query: 'nothing like it' })).toEqual([]);
    store.close();
  });

  it('folds the case of any script in titles, and takes LIKE characters in the query literally', () => {
    const store = open();
    store.createSession({ id: 'de', title: 'ÄRGER mit Umlauten' });
    store.createSession({ id: 'el', title: 'ΣΥΝΆΝΤΗΣΗ' });
    store.createSession({ id: 'pct', title: 'Raise 50% of_the budget' });
    store.createSession({ id: 'plain', title: 'Raise 500 of the budget' });
    expect(store.listSessions({ query: 'ärger' }).map((s) => s.id)).toEqual(['de']);
    expect(store.listSessions({ query: 'συνάντηση' }).map((s) => s.id)).toEqual(['el']);
    expect(store.listSessions({ query: '50%' }).map((s) => s.id)).toEqual(['pct']);
    expect(store.listSessions({ query: 'OF_THE' }).map((s) => s.id)).toEqual(['pct']);
    store.createSession({ id: 'kelvin', title: '300 \u212a in İstanbul' });
    expect(store.listSessions({ query: '300 k' }).map((s) => s.id)).toEqual(['kelvin']);
    expect(store.listSessions({ query: 'i̇stanbul' }).map((s) => s.id)).toEqual(['kelvin']);
    store.close();
  });

  it('narrows titles with a LIKE that keeps every title the case folding would', () => {
    expect(titlePrefilter('abc')).toBe('%abc%');
    // JavaScript folds the dotted capital I and the Kelvin sign to i and k: one character of anything there.
    expect(titlePrefilter('kiwi')).toBe('%__w_%');
    expect(titlePrefilter('i̇stanbul')).toBe('%_%stanbul%');
    expect(titlePrefilter('50%')).toBe('%50\\%%');
    expect(titlePrefilter('a_b')).toBe('%a\\_b%');
    expect(titlePrefilter('数据库')).toBe('%数据库%');
    // Letters with case outside ASCII: LIKE would compare Ä and ä as different, so any run stands in.
    expect(titlePrefilter('ärger')).toBe('%rger%');
    expect(titlePrefilter('xäöy')).toBe('%x%y%');
    expect(titlePrefilter('συνάντηση')).toBe('%');
  });
});

describe('titles and cost', () => {
  it('refuses a title another session has, saying so', () => {
    const store = open();
    store.createSession({ id: 'a', title: 'Taken' });
    store.createSession({ id: 'b' });
    expect(() => store.setTitle('b', 'Taken')).toThrow(/Another session already has the title "Taken"/);
    expect(() => store.createSession({ id: 'c', title: 'Taken' })).toThrow(StoreError);
    store.setTitle('b', 'Free');
    expect(store.getSession('b')!.title).toBe('Free');
    store.close();
  });

  it('adds up the cost when it is known', () => {
    const store = open();
    store.createSession({ id: 'a' });
    store.addUsage('a', { input: 10, output: 5, reasoning: 0 });
    expect(store.getSession('a')!.cost_usd).toBeNull();
    store.addUsage('a', { input: 10, output: 5, reasoning: 0, costUsd: 0.25 });
    store.addUsage('a', { input: 10, output: 5, reasoning: 0, costUsd: 0.5 });
    expect(store.getSession('a')).toMatchObject({ cost_usd: 0.75, input_tokens: 30, api_calls: 3 });
    store.close();
  });
});
