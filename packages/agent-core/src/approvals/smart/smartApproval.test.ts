/**
 * Smart mode's decision flow in the gate, with the real guardian asking the scripted model server:
 * who is asked (guardian, human, nobody), what runs, what is recorded and what the user is told.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type Turn } from '../../../../../scripts/model-server/index.ts';
import { OpenAICompatibleProvider } from '../../providers/openaiProvider.ts';
import { ApprovalGate, type ApprovalGateOptions } from '../approvalGate.ts';
import type { ApprovalChoice, ApprovalDecision, ApprovalQuestion, ApprovalSubject } from '../types.ts';
import { modelGuardian } from './guardian.ts';

const servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const home = '/home/alice';
const cleanBuild: ApprovalSubject = { kind: 'command', toolName: 'terminal', command: 'rm -rf build', cwd: `${home}/project` };
const never = new AbortController().signal;
const verdict = (v: string, reason: string): Turn => ({ text: JSON.stringify({ verdict: v, reason }) });

async function setup(turns: Turn[], overrides: Partial<ApprovalGateOptions> = {}, answers: ApprovalChoice[] = []) {
  const server = await startModelServer({ turns: turns.length ? turns : [{ text: 'unused' }] });
  servers.push(server);
  const decisions: ApprovalDecision[] = [];
  const told: string[] = [];
  const questions: ApprovalQuestion[] = [];
  const gate = new ApprovalGate({
    mode: 'smart',
    allowlist: [],
    timeoutMs: 5_000,
    persistAlways: () => {},
    record: (d) => decisions.push(d),
    home,
    hermesHome: `${home}/.hermes`,
    onError: () => {},
    ...overrides,
  });
  const guardian = modelGuardian({
    provider: () => new OpenAICompatibleProvider({ provider: 'custom', model: 'guard', baseUrl: server.baseUrl, apiKey: 'k' }),
    timeoutMs: 20_000,
    onUsage: () => {},
    tell: (line) => told.push(line),
    onError: () => {},
  });
  const check = (subject: ApprovalSubject, extra: { sessionId?: string; yolo?: boolean } = {}) =>
    gate.check(subject, {
      sessionId: extra.sessionId ?? 's1',
      yolo: extra.yolo ?? false,
      signal: never,
      guardian,
      ask: async (question) => {
        questions.push(question);
        return answers.shift() ?? 'deny';
      },
    });
  const guardianCalls = () => server.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
  return { gate, check, decisions, told, questions, guardianCalls };
}

describe('smart approval in the gate', () => {
  it('approve: runs this once without asking, remembers nothing, records and tells the reason', async () => {
    const { check, questions, decisions, told } = await setup([verdict('approve', 'build output only'), verdict('escalate', 'not sure this time')]);
    expect(await check(cleanBuild)).toEqual({ allowed: true });
    expect(questions).toEqual([]);
    expect(decisions).toMatchObject([{ choice: 'smart-approved', reason: 'build output only', command: 'rm -rf build', patternKey: 'delete.recursive@working tree' }]);
    expect(told).toEqual(['smart approval: approved `rm -rf build` — build output only']);
    // Nothing was approved for the session: the same command goes to the guardian again.
    expect(await check(cleanBuild)).toMatchObject({ allowed: false });
    expect(questions).toHaveLength(1);
  });

  it("deny: blocked with the guardian's reason for the model, no question", async () => {
    const { check, questions, decisions, told } = await setup([verdict('deny', 'the build folder holds the only release')]);
    const result = await check(cleanBuild);
    expect(result.allowed).toBe(false);
    const message = result.allowed ? '' : result.message;
    expect(message).toMatch(/^BLOCKED: `rm -rf build` was not run: .*the approval guardian denied it: the build folder holds the only release\. Do not retry/);
    expect(questions).toEqual([]);
    expect(decisions).toMatchObject([{ choice: 'smart-denied', reason: 'the build folder holds the only release' }]);
    expect(told).toEqual(['smart approval: denied `rm -rf build` — the build folder holds the only release']);
  });

  it("escalate (or garbage): the human is asked, with the guardian's note, and the note is recorded with their choice", async () => {
    const { check, questions, decisions, told } = await setup([verdict('escalate', 'cannot tell what build holds'), { text: 'yes' }], {}, ['once', 'deny']);
    expect(await check(cleanBuild)).toEqual({ allowed: true });
    expect(questions[0]!.description).toMatch(/everything in it — smart approval escalated: cannot tell what build holds$/);
    expect(decisions.at(-1)).toMatchObject({ choice: 'once', reason: 'smart approval escalated: cannot tell what build holds' });
    expect(told).toEqual(['smart approval: asking you about `rm -rf build` — cannot tell what build holds']);
    expect((await check(cleanBuild)).allowed).toBe(false);
    expect(questions[1]!.description).toMatch(/smart approval escalated: the guardian gave no clear verdict: the answer was not a JSON object/);
    expect(decisions.at(-1)).toMatchObject({ choice: 'deny' });
  });

  it('hardline and safe commands never reach the guardian', async () => {
    const { check, guardianCalls, questions, decisions } = await setup([verdict('approve', 'fine')]);
    expect(await check({ kind: 'command', toolName: 'terminal', command: 'rm -rf /' })).toMatchObject({ allowed: false });
    expect(await check({ kind: 'command', toolName: 'terminal', command: 'git status' })).toEqual({ allowed: true });
    expect(guardianCalls()).toBe(0);
    expect(questions).toEqual([]);
    expect(decisions.map((d) => d.choice)).toEqual(['hardline']);
  });

  it('yolo, the allowlist and session approvals decide before the guardian; file writes go to the human', async () => {
    const { check, guardianCalls, questions } = await setup([], { allowlist: ['git.force-push@remote history'] }, ['session']);
    expect(await check(cleanBuild, { yolo: true })).toEqual({ allowed: true });
    expect(await check({ kind: 'command', toolName: 'terminal', command: 'git push --force origin main', cwd: `${home}/project` })).toEqual({ allowed: true });
    expect(await check({ kind: 'write', toolName: 'write_file', path: `${home}/.bashrc`, diff: '+x' })).toEqual({ allowed: true });
    expect(questions.map((q) => q.toolName)).toEqual(['write_file']);
    expect(guardianCalls()).toBe(0);
  });

  it('manual mode never asks the guardian', async () => {
    const { check, guardianCalls, questions } = await setup([verdict('approve', 'fine')], { mode: 'manual' });
    expect((await check(cleanBuild)).allowed).toBe(false);
    expect(questions).toHaveLength(1);
    expect(guardianCalls()).toBe(0);
  });

  it('after the threshold of denials in a session the human decides, without asking the guardian', async () => {
    const { check, guardianCalls, questions, told } = await setup(
      [verdict('deny', 'no'), verdict('deny', 'no'), verdict('approve', 'other session')],
      { denialBreakerThreshold: 2 },
      ['once'],
    );
    expect((await check(cleanBuild)).allowed).toBe(false);
    expect((await check(cleanBuild)).allowed).toBe(false);
    expect(await check(cleanBuild)).toEqual({ allowed: true });
    expect(guardianCalls()).toBe(2);
    expect(questions[0]!.description).toMatch(/the guardian denied 2 commands in this session \(approvals\.denial_breaker_threshold: 2\)/);
    expect(told.at(-1)).toMatch(/^smart approval: asking you about `rm -rf build` — the guardian denied 2 commands/);
    // Another session still has its guardian.
    expect(await check(cleanBuild, { sessionId: 's2' })).toEqual({ allowed: true });
    expect(guardianCalls()).toBe(3);
  });
});
