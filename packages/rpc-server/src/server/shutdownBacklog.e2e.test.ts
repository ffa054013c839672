/**
 * The backend's last answers reach a client that was behind when the backend was told to stop: the
 * frames waiting for the pipe to drain go out before stdout ends (the real bundle over real pipes).
 */
import { describe, expect, it } from 'vitest';
import { writeStoredSession } from '../../../../scripts/bench/lib/sessionHome.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { BackendProcess } from '../testing/backendProcess.ts';

const SESSION = '20260101_000000_bigreplies';

describe('shutdown while the client is behind', () => {
  it('SIGTERM: every answer already given is written before the backend exits', { timeout: 60_000 }, async () => {
    const home = tempDir('hermes-home-');
    // Each history answer is about 2 MB: far more than the pipe and the stream's buffer hold.
    const reply = 'x'.repeat(500_000);
    await writeStoredSession(home, { id: SESSION, title: 'big replies' }, [
      { role: 'user', content: 'q' },
      ...Array.from({ length: 4 }, () => ({ role: 'assistant', content: reply })),
    ]);
    const backend = new BackendProcess({ home });
    await backend.waitForEvent((e) => e.type === 'gateway.ready');
    backend.child.stdout.pause();
    const answers = Array.from({ length: 3 }, () => backend.request('session.history', { session_id: SESSION }).then((r) => r.messages.length));
    // The backend has read the requests and answered them into its own queue.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    backend.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    backend.child.stdout.resume();
    // Whatever has arrived once the backend is gone (a lost answer would never come).
    const code = await backend.exited;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const arrived = await Promise.all(answers.map((a) => Promise.race([a, Promise.resolve('lost')])));
    expect(arrived).toEqual([5, 5, 5]);
    expect(code).toBe(0);
  });
});
