/**
 * A tool call's duration is the time the call took, not the time the human took to answer its
 * approval; and how the call ended (duration, blocked, error) is stored with its result. The real
 * runtime and approval gate, a real state.db, and the scripted model server.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer } from '../../../../scripts/model-server/index.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import type { AskApproval } from '../approvals/types.ts';
import { createFileLogger } from '../logging/logger.ts';
import { HermesRuntime } from '../runtime.ts';
import type { AgentEvent } from './events.ts';
import { NO_PROMPTS } from './sessionOptions.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** How long the human takes to answer: longer than the whole call could take without the wait. */
const APPROVAL_WAIT_MS = 2000;

async function run(answer: 'once' | 'deny') {
  const home = tempDir('hermes-tooltime-');
  const server = await startModelServer({ turns: [{ tool_calls: [{ id: 'c1', name: 'clean_build', arguments: {} }] }, { text: 'done' }] });
  cleanups.push(() => server.close());
  const runtime = new HermesRuntime({
    home,
    env: {},
    logger: createFileLogger(path.join(home, 'logs', 'agent.log')),
    flags: { provider: 'custom', baseUrl: server.baseUrl, model: 'scripted-model' },
  });
  cleanups.push(() => runtime.close());
  // Asks (a recursive delete) and, once allowed, returns at once.
  runtime.tools.register({
    name: 'clean_build',
    toolset: 'test',
    description: 'clean',
    parameters: { type: 'object', properties: {} },
    approval: () => ({ kind: 'command', toolName: 'clean_build', command: 'rm -rf build' }),
    handler: () => 'cleaned',
  });
  let asked = 0;
  const slowHuman: AskApproval = async () => {
    asked++;
    await new Promise((resolve) => setTimeout(resolve, APPROVAL_WAIT_MS));
    return answer;
  };
  const events: AgentEvent[] = [];
  const session = runtime.openSession({ cwd: home, emit: (e) => events.push(e), prompts: { ...NO_PROMPTS, approval: slowHuman } });
  cleanups.push(() => session.close());
  expect(await session.submit('clean it')).toMatchObject({ status: 'complete' });
  const complete = events.find((e) => e.type === 'tool.complete')!.payload as { duration_s: number; blocked?: boolean; error?: string };
  const stored = session.history().find((m) => m.role === 'tool')!;
  return { asked, complete, stored };
}

describe('the duration of a tool call', () => {
  it('leaves out a slow approval, live and as stored', async () => {
    const { asked, complete, stored } = await run('once');
    expect(asked).toBe(1);
    expect(complete.duration_s).toBeLessThan(APPROVAL_WAIT_MS / 1000);
    expect(stored.toolOutcome).toEqual({ durationS: complete.duration_s });
  });

  it('of a denied call leaves out the wait too, and the stored result says it was blocked', async () => {
    const { asked, complete, stored } = await run('deny');
    expect(asked).toBe(1);
    expect(complete).toMatchObject({ blocked: true, error: expect.any(String) });
    expect(complete.duration_s).toBeLessThan(APPROVAL_WAIT_MS / 1000);
    expect(stored.toolOutcome).toEqual({ durationS: complete.duration_s, blocked: true, error: complete.error });
  });
});
