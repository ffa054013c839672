import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDb } from '../testing/tempHome.ts';
import { SessionStore } from '../sessions/sessionStore.ts';
import { StreamingMessage } from './streamingMessage.ts';

const stores: SessionStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

function openStore(): SessionStore {
  const store = SessionStore.open(tempDb('streaming'));
  stores.push(store);
  store.createSession({ id: 's1' });
  return store;
}

const storedText = (store: SessionStore) => store.messages('s1').map((m) => [m.content, m.status]);

describe('StreamingMessage', () => {
  it('writes text that came inside the throttle window once the stream pauses, without another delta', async () => {
    const store = openStore();
    const reply = new StreamingMessage(store, 's1');
    reply.update('Hello');
    reply.update('Hello, wor');
    reply.update('Hello, world. Then the model pauses');
    expect(storedText(store)).toEqual([['Hello', 'streaming']]);
    // A kill -9 during the pause must find what the user saw.
    await vi.waitFor(() => expect(storedText(store)).toEqual([['Hello, world. Then the model pauses', 'streaming']]), { timeout: 5_000, interval: 20 });
  });

  it('the final form wins over a pending trailing write', async () => {
    const store = openStore();
    const reply = new StreamingMessage(store, 's1');
    reply.update('Hel');
    reply.update('Hello');
    reply.finish({ content: 'Hello!', status: 'complete' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(storedText(store)).toEqual([['Hello!', 'complete']]);
  });
});
