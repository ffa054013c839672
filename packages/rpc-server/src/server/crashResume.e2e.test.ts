/**
 * kill -9 of the backend in the middle of a streamed turn, at 20 moments chosen by a seeded random
 * generator: every committed message is there when the session is resumed, a cut-off reply shows as
 * interrupted, and the database passes PRAGMA integrity_check.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../../scripts/model-server/index.ts';
import type { SessionOpenResult, TranscriptMessage } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { seededRandom } from '../../../../scripts/testing/seededRandom.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const ROUNDS = 20;
const REPLY = Array.from({ length: 120 }, (_, i) => `word${i} `).join('');

describe('crash and resume', () => {
  it(`keeps every committed message across ${ROUNDS} kill -9s at random moments`, { timeout: 180_000 }, async () => {
    const random = seededRandom(20261130);
    const server: ModelServer = await startModelServer({ loop: true, turns: [{ text: REPLY, chunk_size: 6, chunk_delay_ms: 8 }] });
    cleanups.push(() => server.close());
    const home = tempDir('hermes-crash-');
    const args = ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'];
    let storedId: string | null = null;
    /** What we know was committed before each crash: grows every round. */
    let committed: TranscriptMessage[] = [];

    for (let round = 1; round <= ROUNDS; round += 1) {
      const backend = new BackendProcess({ home, args });
      cleanups.push(() => backend.stop());
      const opened: SessionOpenResult = storedId
        ? await backend.request('session.resume', { session_id: storedId })
        : await backend.request('session.create', {});
      storedId = opened.stored_session_id;
      const sid = opened.session_id;
      // Everything committed before the last crash is still there, in order.
      const kept = opened.messages.map((m) => [m.role, m.text]);
      expect(kept.slice(0, committed.length), `round ${round}`).toEqual(committed.map((m) => [m.role, m.text]));
      // The reply cut off by the last crash (if it had started) is marked interrupted.
      const last = opened.messages.at(-1);
      if (round > 1 && last?.role === 'assistant') {
        expect(last.status).toBe('interrupted');
        expect(REPLY.startsWith(last.text)).toBe(true);
      }
      committed = opened.messages;

      await backend.request('prompt.submit', { session_id: sid, text: `prompt ${round}` });
      await backend.waitForEvent((e) => e.type === 'message.start');
      // The user's message is committed before the model is called.
      committed = [...committed, { role: 'user', text: `prompt ${round}` }];
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 900)));
      backend.child.kill('SIGKILL');
      await backend.exited;

      const db = new Database(path.join(home, 'state.db'));
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    }
  });
});
