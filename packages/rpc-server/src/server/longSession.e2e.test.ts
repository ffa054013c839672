/**
 * A long session through the real backend: many turns with tool calls against a small context window,
 * so the prompt is compressed several times. Every request the model gets must be a valid message
 * sequence, and the stored transcript must keep everything.
 */
import fs from 'node:fs';
import path from 'node:path';
import { validateMessageSequence, type ChatMessage } from '@hermes/agent-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import type { EventOf } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const TURNS = 40;

describe('a long session', () => {
  it('compresses the prompt repeatedly and keeps every request valid and every message stored', { timeout: 120_000 }, async () => {
    const cwd = tempDir('hermes-long-');
    fs.writeFileSync(path.join(cwd, 'notes.txt'), `${'a line of project notes\n'.repeat(40)}`);
    // Every turn answers with text (so a summary request gets text too); every other one reads a file first.
    const turns: Turn[] = [
      { text: 'Reading the notes first.', tool_calls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { text: `Done. ${'Here is a fairly long explanation of what I found. '.repeat(6)}` },
    ];
    // Summary calls come whenever the prompt grows too long; they get their own answer.
    const server: ModelServer = await startModelServer({
      loop: true,
      turns,
      on_match: [
        {
          when_last_message_contains: 'Summarize the conversation excerpt below',
          turn: { text: '## User goals: explain the notes.\n## Facts found: notes.txt has 40 lines of project notes.' },
        },
      ],
    });
    cleanups.push(() => server.close());
    const backend = new BackendProcess({
      config: 'model:\n  context_length: 12000\ncompression:\n  threshold: 0.5\n',
      args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'],
    });
    cleanups.push(() => backend.stop());
    const { session_id: sid } = await backend.request('session.create', { cwd });

    for (let i = 1; i <= TURNS; i += 1) {
      const before = backend.events.filter((e) => e.type === 'message.complete').length;
      await backend.request('prompt.submit', { session_id: sid, text: `Request ${i}: ${'please look at the notes again and explain. '.repeat(4)}` });
      await backend.waitForEvent(() => backend.events.filter((e) => e.type === 'message.complete').length > before);
      const done = backend.events.filter((e) => e.type === 'message.complete').at(-1) as EventOf<'message.complete'>;
      expect(done.payload!.status, `turn ${i}: ${done.payload!.error ?? ''}`).toBe('complete');
    }

    const compactions = backend.events.filter(
      (e) => e.type === 'status.update' && (e as EventOf<'status.update'>).payload!.kind === 'compacted',
    ) as EventOf<'status.update'>[];
    expect(compactions.filter((e) => e.payload!.text.startsWith('compressed:')).length).toBeGreaterThanOrEqual(2);
    expect(backend.events.some((e) => e.type === 'status.update' && (e as EventOf<'status.update'>).payload!.kind === 'warn')).toBe(false);

    const summaryCalls = server.requests.filter((r) =>
      JSON.stringify((r.body as { messages: unknown[] }).messages.at(-1)).includes('Summarize the conversation excerpt below'),
    );
    const compressed = compactions.filter((e) => e.payload!.text.startsWith('compressed:')).length;
    // Each compression made one summary call; and compression did not run before every call.
    expect(summaryCalls.length).toBe(compactions.length);
    expect(compressed).toBeLessThan(TURNS);
    for (const [n, request] of server.requests.entries()) {
      const messages = (request.body as { messages: ChatMessage[] }).messages;
      expect(validateMessageSequence(messages), `request ${n + 1}`).toEqual([]);
    }
    const history = await backend.request('session.history', { session_id: sid });
    const users = history.messages.filter((m) => m.role === 'user').map((m) => m.text);
    expect(users).toHaveLength(TURNS);
    expect(users.at(-1)).toMatch(/^Request 40:/);
    // The last request still carried the latest user message verbatim.
    const last = (server.requests.at(-1)!.body as { messages: ChatMessage[] }).messages;
    expect(last.some((m) => m.role === 'user' && String(m.content).startsWith('Request 40:'))).toBe(true);
  });
});
