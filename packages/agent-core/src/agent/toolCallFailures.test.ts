/**
 * A step around a tool call that throws (a tool's approval(), an extension's middleware) is that
 * call's error, logged with where it happened; only an abort is an interruption. The real runtime,
 * a real state.db and log file, and the scripted model server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import type { ExtensionPort } from '../extensions/extensionPort.ts';
import { NO_EXTENSIONS } from '../extensions/extensionPort.ts';
import { createFileLogger } from '../logging/logger.ts';
import { HermesRuntime } from '../runtime.ts';
import { StoreError } from '../sessions/storeError.ts';
import type { ToolDefinition } from '../tools/types.ts';
import type { AgentEvent } from './events.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A test tool with no arguments: `handler` and `approval` as given. */
function testTool(name: string, parts: Pick<ToolDefinition, 'handler' | 'approval'>): ToolDefinition {
  return { name, toolset: 'test', description: name, parameters: { type: 'object', properties: {} }, ...parts };
}

const TOOLS = [
  // Its approval() breaks (as a buggy tool's would); the handler would run fine.
  testTool('broken_approval', {
    handler: () => 'ran',
    approval: () => {
      throw new TypeError('approval probe crashed');
    },
  }),
  // Its approval() meets a failing state.db (as a tool reading the store would).
  testTool('storage_failure', {
    handler: () => 'ran',
    approval: () => {
      throw new StoreError('The disk holding /x is full: /x/state.db cannot be written. Fix: free some space on that disk (df -h /x), then try again.', 'disk_full', '/x/state.db');
    },
  }),
  // Runs until the turn's abort, then throws it (as a plugin tool abandoned on interrupt does).
  testTool('waits_for_abort', {
    handler: (_args, context) => new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason))),
  }),
];

async function start(turns: Turn[], extensions: ExtensionPort = NO_EXTENSIONS) {
  const home = tempDir('hermes-toolfail-');
  const server: ModelServer = await startModelServer({ turns });
  cleanups.push(() => server.close());
  const logFile = path.join(home, 'logs', 'agent.log');
  const runtime = new HermesRuntime({
    home,
    env: {},
    logger: createFileLogger(logFile),
    flags: { provider: 'custom', baseUrl: server.baseUrl, model: 'scripted-model' },
    extensions,
  });
  cleanups.push(() => runtime.close());
  for (const tool of TOOLS) runtime.tools.register(tool);
  const events: AgentEvent[] = [];
  const session = runtime.openSession({ cwd: home, emit: (e) => events.push(e) });
  cleanups.push(() => session.close());
  return { server, session, events, log: () => fs.readFileSync(logFile, 'utf8') };
}

const toolResultsSent = (server: ModelServer, request: number) =>
  (server.requests[request]!.body as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role === 'tool').map((m) => m.content);

describe('a step around a tool call that throws', () => {
  it("a tool's approval() that throws: the call's error (not interrupted), logged naming the tool; the turn goes on", async () => {
    const { server, session, events, log } = await start([{ tool_calls: [{ id: 'c1', name: 'broken_approval', arguments: {} }] }, { text: 'noted' }, { text: 'again' }]);
    const result = await session.submit('use it');

    expect(result.status).toBe('complete');
    expect(result.text).toBe('noted');
    const complete = events.find((e) => e.type === 'tool.complete')?.payload;
    expect(complete).toMatchObject({ name: 'broken_approval', error: expect.stringMatching(/the approval\(\) of tool broken_approval failed: approval probe crashed/) });
    expect(complete).not.toHaveProperty('interrupted');
    // The model reads the failure as the tool's error result.
    expect(toolResultsSent(server, 1)).toEqual([expect.stringMatching(/^\[TOOL_ERROR\] broken_approval was not run: the approval\(\) of tool broken_approval failed: approval probe crashed/)]);
    expect(log()).toMatch(/tool call c1 \(broken_approval\) failed in the approval\(\) of tool broken_approval: TypeError: approval probe crashed\n\s+at /);
    const stored = session.history().find((m) => m.role === 'tool')!;
    expect(stored.status).not.toBe('interrupted');

    // The session takes the next prompt.
    expect(await session.submit('next')).toMatchObject({ status: 'complete', text: 'again' });
  });

  it('an extension whose tool_execution middleware throws: the call\'s error, logged naming the step', async () => {
    const failing: ExtensionPort = {
      ...NO_EXTENSIONS,
      runExecutionMiddleware: async (kind, payload, _context, terminal) => {
        if (kind === 'tool_execution') throw new Error('middleware host broke');
        return terminal(payload);
      },
    };
    const { session, events, log } = await start([{ tool_calls: [{ id: 'c2', name: 'read_file', arguments: { path: 'x.txt' } }] }, { text: 'ok' }], failing);
    const result = await session.submit('read');

    expect(result.status).toBe('complete');
    expect(events.find((e) => e.type === 'tool.complete')?.payload).toMatchObject({ error: expect.stringMatching(/the tool_execution middleware failed: middleware host broke/) });
    expect(events.find((e) => e.type === 'tool.complete')?.payload).not.toHaveProperty('interrupted');
    expect(log()).toMatch(/tool call c2 \(read_file\) failed in the tool_execution middleware: Error: middleware host broke/);
  });

  it('a storage failure ends the turn as failed with the store\'s explanation (no result could be kept); the session goes on', async () => {
    const { session, log } = await start([{ tool_calls: [{ id: 'c4', name: 'storage_failure', arguments: {} }] }, { text: 'after' }]);
    const result = await session.submit('store');

    expect(result).toMatchObject({ status: 'error', error: expect.stringMatching(/^The disk holding \/x is full/) });
    expect(log()).toMatch(/turn failed in session .*: The disk holding \/x is full/);
    // The unanswered call was repaired, so the next turn is accepted and sent.
    expect(await session.submit('next')).toMatchObject({ status: 'complete', text: 'after' });
  });

  it('an interrupt while a tool runs is still recorded as interrupted', async () => {
    const { session, events } = await start([{ tool_calls: [{ id: 'c3', name: 'waits_for_abort', arguments: {} }] }, { text: 'never' }]);
    const running = session.submit('run');
    await waitFor(() => events.some((e) => e.type === 'tool.start'));
    session.interrupt();
    const result = await running;

    expect(result.status).toBe('interrupted');
    expect(events.find((e) => e.type === 'tool.complete')?.payload).toMatchObject({ interrupted: true, error: 'interrupted' });
    expect(session.history().find((m) => m.role === 'tool')!.status).toBe('interrupted');
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}
