import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ApprovalDecision } from '../approvals/types.ts';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.ts';
import { SessionStore, StoreError } from './sessionStore.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const tmpDb = () => path.join(tempDir('hermes-approvals-'), 'state.db');

const decision = (overrides: Partial<ApprovalDecision> = {}): ApprovalDecision => ({
  sessionId: 's1',
  toolName: 'terminal',
  command: 'git push --force',
  patternKey: 'git force push',
  choice: 'once',
  at: 1_700_000_000_123,
  ...overrides,
});

describe('approval decisions in the session store', () => {
  it('records decisions and reads them back in order, across a reopen', () => {
    const file = tmpDb();
    const store = SessionStore.open(file);
    store.createSession({ id: 's1' });
    store.createSession({ id: 's2' });
    store.recordApproval(decision());
    store.recordApproval(decision({ choice: 'hardline', command: 'rm -rf /', patternKey: 'recursive delete of the root, a system directory or home' }));
    store.recordApproval(decision({ sessionId: 's2', choice: 'timeout' }));
    store.close();
    const reopened = SessionStore.open(file);
    expect(reopened.approvalDecisions('s1')).toEqual([
      decision(),
      decision({ choice: 'hardline', command: 'rm -rf /', patternKey: 'recursive delete of the root, a system directory or home' }),
    ]);
    expect(reopened.approvalDecisions('s2').map((d) => d.choice)).toEqual(['timeout']);
    reopened.close();
  });

  it("keeps smart approval's reason with the decision, redacted", () => {
    const file = tmpDb();
    const store = SessionStore.open(file);
    try {
      store.createSession({ id: 's1' });
      const key = `sk-${'a1b2c3d4'.repeat(5)}`;
      store.recordApproval(decision({ choice: 'smart-denied', reason: `would push ${key} to a public remote` }));
      store.recordApproval(decision({ choice: 'smart-approved', reason: 'build output only' }));
      expect(store.approvalDecisions('s1')).toEqual([
        decision({ choice: 'smart-denied', reason: 'would push sk-[REDACTED] to a public remote' }),
        decision({ choice: 'smart-approved', reason: 'build output only' }),
      ]);
    } finally {
      store.close();
    }
  });

  it('refuses a decision for a session that does not exist', () => {
    const store = SessionStore.open(tmpDb());
    expect(() => store.recordApproval(decision({ sessionId: 'ghost' }))).toThrow(StoreError);
    store.close();
  });

  it('deletes a session’s decisions with the session', () => {
    const store = SessionStore.open(tmpDb());
    store.createSession({ id: 's1' });
    store.recordApproval(decision());
    store.db.prepare('DELETE FROM sessions WHERE id = ?').run('s1');
    expect(store.approvalDecisions('s1')).toEqual([]);
    store.close();
  });

  it('upgrades a version-1 database, keeping its sessions and messages', () => {
    const file = tmpDb();
    const old = new Database(file);
    old.exec(MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    old.prepare("INSERT INTO sessions (id, started_at, last_active) VALUES ('old', 1, 1)").run();
    old.prepare("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('old', 'user', 'hello', 1)").run();
    old.close();

    const store = SessionStore.open(file);
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBe(7);
    expect(store.messages('old').map((m) => m.content)).toEqual(['hello']);
    store.recordApproval(decision({ sessionId: 'old' }));
    expect(store.approvalDecisions('old')).toHaveLength(1);
    store.close();
  });
});
