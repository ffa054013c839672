/**
 * Smart approval end to end: the real backend in `approvals.mode: smart`, the scripted model server
 * answering both the agent's calls and the guardian's (told apart by the guardian's system prompt),
 * and a client that records every `approval` request it gets.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type RecordedRequest, type Turn } from '../../../../scripts/model-server/index.ts';
import type { EventOf } from '../protocol/index.ts';
import { startApprovalBackend } from '../testing/approvalBackend.ts';
import { lastToolResult } from '../testing/modelRequests.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const verdict = (v: string, reason: string): Turn => ({ text: JSON.stringify({ verdict: v, reason }), usage: { prompt_tokens: 50, completion_tokens: 9 } });
const isGuardianCall = (r: RecordedRequest) => JSON.stringify(r.body ?? '').includes('You are the approval guardian of hermes');

async function start(options: { turns: Turn[]; config?: string; env?: Record<string, string>; answer?: 'once' | 'deny' }) {
  const home = tempDir('hermes-home-');
  fs.writeFileSync(path.join(home, 'config.yaml'), options.config ?? 'approvals:\n  mode: smart\n');
  const answer = () => options.answer ?? 'deny';
  const { server, backend, asked } = await startApprovalBackend({ turns: options.turns, home, env: options.env, answer }, (cleanup) => cleanups.push(cleanup));
  const session = await backend.request('session.create', {});
  const turn = async (text: string) => {
    await backend.request('prompt.submit', { session_id: session.session_id, text });
    return (await backend.waitForEvent((e) => e.session_id === session.session_id && e.type === 'message.complete', 30_000)) as EventOf<'message.complete'>;
  };
  const statusLines = () =>
    backend.eventsOf(session.session_id).flatMap((e) => (e.type === 'status.update' ? [(e as EventOf<'status.update'>).payload!.text] : []));
  const decisions = async () => {
    await backend.stop();
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(path.join(home, 'state.db'), { readonly: true });
    const rows = db.prepare('SELECT command, choice, reason FROM approval_decisions ORDER BY id').all();
    db.close();
    return rows;
  };
  return { server, backend, asked, turn, statusLines, decisions, session };
}

/** The agent runs `command` with the terminal tool; the guardian answers `guardian`; then the agent says done. */
const agentRuns = (command: string, guardian?: Turn): Turn[] => [
  { tool_calls: [{ name: 'terminal', arguments: { command } }] },
  ...(guardian ? [guardian] : []),
  { text: 'done' },
];

describe('smart approval over the wire', () => {
  it('approve: the dangerous command runs without an approval request; the verdict is shown, counted and audited', async () => {
    const target = tempDir('hermes-build-');
    const command = `rm -rf ${target}`;
    const { server, asked, turn, statusLines, decisions, backend, session } = await start({
      turns: agentRuns(command, verdict('approve', 'build output only')),
    });
    expect((await turn('clean the build')).payload!.status).toBe('complete');
    expect(fs.existsSync(target)).toBe(false);
    expect(asked).toEqual([]);
    const guardianCalls = server.requests.filter(isGuardianCall);
    expect(guardianCalls).toHaveLength(1);
    expect(guardianCalls[0]!.body).toMatchObject({ temperature: 0 });
    expect(JSON.stringify(guardianCalls[0]!.body)).toContain(command);
    expect(statusLines()).toContain(`smart approval: approved \`${command}\` — build output only`);
    // The guardian's answer is not part of the reply, but its tokens are part of the session's usage.
    const complete = backend.eventsOf(session.session_id).find((e) => e.type === 'message.complete') as EventOf<'message.complete'>;
    expect(complete.payload!.text).toBe('done');
    const streamed = backend.eventsOf(session.session_id).filter((e) => e.type === 'message.delta' || e.type === 'reasoning.delta');
    expect(JSON.stringify(streamed)).not.toContain('verdict');
    expect(complete.payload!.usage).toMatchObject({ calls: 3 });
    expect(await decisions()).toEqual([{ command, choice: 'smart-approved', reason: 'build output only' }]);
  });

  it("deny: blocked with the guardian's reason, which the model is told; nobody is asked", async () => {
    const target = tempDir('hermes-keep-');
    fs.writeFileSync(path.join(target, 'keep.txt'), 'precious');
    const command = `rm -rf ${target}`;
    const { server, asked, turn, statusLines, decisions, backend, session } = await start({
      turns: agentRuns(command, verdict('deny', 'holds the only copy of keep.txt')),
    });
    await turn('clean up');
    expect(fs.readFileSync(path.join(target, 'keep.txt'), 'utf8')).toBe('precious');
    expect(asked).toEqual([]);
    expect(lastToolResult(server)).toMatch(/^BLOCKED: .*the approval guardian denied it: holds the only copy of keep\.txt\. Do not retry/);
    const complete = backend.eventsOf(session.session_id).find((e) => e.type === 'tool.complete') as EventOf<'tool.complete'>;
    expect(complete.payload).toMatchObject({ blocked: true });
    expect(statusLines()).toContain(`smart approval: denied \`${command}\` — holds the only copy of keep.txt`);
    expect(await decisions()).toEqual([{ command, choice: 'smart-denied', reason: 'holds the only copy of keep.txt' }]);
  });

  it("an unparseable verdict: the human's approval request arrives carrying the guardian's note", async () => {
    const target = tempDir('hermes-maybe-');
    const command = `rm -rf ${target}`;
    const { asked, turn, decisions } = await start({ turns: agentRuns(command, { text: 'Sure, go ahead!' }), answer: 'once' });
    await turn('clean up');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ command, choices: ['once', 'session', 'always', 'deny'] });
    expect(asked[0]!.description).toMatch(/ — smart approval escalated: the guardian gave no clear verdict: the answer was not a JSON object/);
    expect(fs.existsSync(target)).toBe(false);
    expect(await decisions()).toEqual([{ command, choice: 'once', reason: expect.stringMatching(/^smart approval escalated: the guardian gave no clear verdict/) }]);
  });

  it('a guardian that does not answer within auxiliary.approval.timeout: the human is asked', async () => {
    const target = tempDir('hermes-slow-');
    const command = `rm -rf ${target}`;
    const { asked, turn } = await start({
      turns: agentRuns(command, { ...verdict('approve', 'too late'), delay_ms: 60_000 }),
      config: 'approvals:\n  mode: smart\nauxiliary:\n  approval:\n    timeout: 0.5\n',
    });
    await turn('clean up');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.description).toMatch(/smart approval escalated: the guardian gave no verdict within 0\.5 s$/);
    // The human (this client) denied it.
    expect(fs.existsSync(target)).toBe(true);
  });

  it('a hardline command never runs and the guardian is not even asked', async () => {
    const dir = tempDir('hermes-hard-');
    const marker = path.join(dir, 'ran');
    const { server, asked, turn, decisions } = await start({ turns: agentRuns(`touch ${marker} && mkfs.ext4 /dev/hermes-no-such-disk`) });
    await turn('format it');
    expect(fs.existsSync(marker)).toBe(false);
    expect(asked).toEqual([]);
    expect(server.requests.filter(isGuardianCall)).toEqual([]);
    expect(server.requests).toHaveLength(2);
    expect(lastToolResult(server)).toMatch(/^BLOCKED: .*never allowed/);
    expect(await decisions()).toMatchObject([{ choice: 'hardline', reason: null }]);
  });

  it('auxiliary.approval sends the guardian to its own model (here over the Anthropic wire)', async () => {
    const guardianServer = await startModelServer({ turns: [verdict('approve', 'scratch files only')] });
    cleanups.push(() => guardianServer.close());
    const target = tempDir('hermes-aux-');
    const command = `rm -rf ${target}`;
    const { server, asked, turn } = await start({
      turns: agentRuns(command),
      config: `approvals:\n  mode: smart\nauxiliary:\n  approval:\n    provider: anthropic\n    model: claude-guard\n    base_url: ${guardianServer.url}\n`,
      env: { ANTHROPIC_API_KEY: 'sk-ant-test-guardian-key-0123456789' },
    });
    await turn('clean up');
    expect(fs.existsSync(target)).toBe(false);
    expect(asked).toEqual([]);
    expect(server.requests.filter(isGuardianCall)).toEqual([]);
    expect(guardianServer.requests).toHaveLength(1);
    expect(guardianServer.requests[0]).toMatchObject({ path: '/v1/messages', body: { model: 'claude-guard', temperature: 0 } });
  });
});
