import { describe, expect, it } from 'vitest';
import { ApprovalGate, type ApprovalGateOptions } from './approvalGate.ts';
import type { ApprovalChoice, ApprovalDecision, ApprovalQuestion, ApprovalSubject, AskApproval } from './types.ts';

const home = '/home/alice';
const project = `${home}/project`;
const cleanBuild: ApprovalSubject = { kind: 'command', toolName: 'terminal', command: 'rm -rf build', cwd: project };
const BUILD_KEY = 'delete.recursive@working tree';
const wipe: ApprovalSubject = { kind: 'command', toolName: 'terminal', command: 'rm -rf /' };
const never = new AbortController().signal;

function setup(overrides: Partial<ApprovalGateOptions> = {}) {
  const decisions: ApprovalDecision[] = [];
  const persisted: string[] = [];
  const gate = new ApprovalGate({
    mode: 'manual',
    allowlist: [],
    timeoutMs: 5_000,
    persistAlways: (key) => persisted.push(key),
    record: (d) => decisions.push(d),
    home,
    hermesHome: `${home}/.hermes`,
    onError: () => {},
    ...overrides,
  });
  return { gate, decisions, persisted };
}

/** A human who answers with the given choices in turn and remembers the questions. */
function human(...answers: ApprovalChoice[]) {
  const questions: ApprovalQuestion[] = [];
  const ask: AskApproval = async (question) => {
    questions.push(question);
    return answers.shift() ?? 'deny';
  };
  return { ask, questions };
}

const opts = (ask: AskApproval, extra: { sessionId?: string; yolo?: boolean; signal?: AbortSignal } = {}) => ({
  sessionId: extra.sessionId ?? 's1',
  yolo: extra.yolo ?? false,
  ask,
  signal: extra.signal ?? never,
});

describe('ApprovalGate', () => {
  it('lets safe commands through without asking or recording', async () => {
    const { gate, decisions } = setup();
    const { ask, questions } = human();
    expect(await gate.check({ kind: 'command', toolName: 'terminal', command: 'git status' }, opts(ask))).toEqual({ allowed: true });
    expect(questions).toEqual([]);
    expect(decisions).toEqual([]);
  });

  it('asks with every finding, the full command and all four choices', async () => {
    const { gate } = setup();
    const { ask, questions } = human('once');
    expect(await gate.check(cleanBuild, opts(ask))).toEqual({ allowed: true });
    expect(questions).toEqual([
      {
        toolName: 'terminal',
        command: 'rm -rf build',
        description: `rm ${project}/build and everything in it`,
        findings: [{ level: 'dangerous', rule: 'delete.recursive', target: 'working tree', why: `rm ${project}/build and everything in it`, line: 1 }],
        choices: ['once', 'session', 'always', 'deny'],
      },
    ]);
  });

  it('"once" allows this call only', async () => {
    const { gate, persisted } = setup();
    const { ask, questions } = human('once', 'deny');
    expect((await gate.check(cleanBuild, opts(ask))).allowed).toBe(true);
    expect((await gate.check(cleanBuild, opts(ask))).allowed).toBe(false);
    expect(questions).toHaveLength(2);
    expect(persisted).toEqual([]);
  });

  it('"deny" blocks with a message telling the model not to work around it', async () => {
    const { gate } = setup();
    const verdict = await gate.check(cleanBuild, opts(human('deny').ask));
    expect(verdict.allowed).toBe(false);
    const message = verdict.allowed ? '' : verdict.message;
    expect(message).toMatch(/^BLOCKED: /);
    expect(message).toContain('rm -rf build');
    expect(message).toContain('the user denied it');
    expect(message).toMatch(/Do not retry it, rephrase it, or work around it/);
    expect(message).toMatch(/ask the user/);
  });

  it('"session" approves the rule on that target class, for that session only', async () => {
    const { gate, decisions } = setup();
    const first = human('session');
    await gate.check(cleanBuild, opts(first.ask));
    const again = human();
    const otherCleanBuild = { ...cleanBuild, command: 'rm -r -f dist' };
    expect(await gate.check(otherCleanBuild, opts(again.ask))).toEqual({ allowed: true });
    expect(again.questions).toEqual([]);
    const other = human('deny');
    expect((await gate.check(cleanBuild, opts(other.ask, { sessionId: 's2' }))).allowed).toBe(false);
    expect(other.questions).toHaveLength(1);
    expect(decisions.map((d) => [d.sessionId, d.choice])).toEqual([['s1', 'session'], ['s1', 'session-approved'], ['s2', 'deny']]);
  });

  it('forgetSession drops the session approvals', async () => {
    const { gate } = setup();
    await gate.check(cleanBuild, opts(human('session').ask));
    gate.forgetSession('s1');
    const again = human('deny');
    expect((await gate.check(cleanBuild, opts(again.ask))).allowed).toBe(false);
    expect(again.questions).toHaveLength(1);
  });

  it('"always" persists the key and allows it later in any session', async () => {
    const { gate, persisted, decisions } = setup();
    await gate.check(cleanBuild, opts(human('always').ask));
    expect(persisted).toEqual([BUILD_KEY]);
    const later = human();
    expect((await gate.check(cleanBuild, opts(later.ask, { sessionId: 'other' }))).allowed).toBe(true);
    expect(later.questions).toEqual([]);
    expect(decisions.at(-1)).toMatchObject({ sessionId: 'other', choice: 'allowlist', patternKey: BUILD_KEY });
  });

  it('"always" still allows the call when saving fails, and reports the failure', async () => {
    const errors: string[] = [];
    const { gate } = setup({ persistAlways: () => { throw new Error('config.yaml is not valid YAML'); }, onError: (m) => errors.push(m) });
    expect((await gate.check(cleanBuild, opts(human('always').ask))).allowed).toBe(true);
    expect(errors).toEqual([expect.stringContaining('could not save')]);
  });

  it('allows keys already in the configured allowlist', async () => {
    const { gate, decisions } = setup({ allowlist: [BUILD_KEY] });
    const { ask, questions } = human();
    expect((await gate.check(cleanBuild, opts(ask))).allowed).toBe(true);
    expect(questions).toEqual([]);
    expect(decisions[0]!.choice).toBe('allowlist');
  });

  it('denies when nobody answers within the timeout, and aborts the question', async () => {
    const { gate, decisions } = setup({ timeoutMs: 20 });
    let questionSignal: AbortSignal | undefined;
    const silent: AskApproval = (_q, signal) => {
      questionSignal = signal;
      return new Promise(() => {});
    };
    const verdict = await gate.check(cleanBuild, opts(silent));
    expect(verdict.allowed).toBe(false);
    expect(verdict.allowed ? '' : verdict.message).toMatch(/^BLOCKED: .*nobody approved it within/);
    expect(questionSignal?.aborted).toBe(true);
    expect(decisions[0]!.choice).toBe('timeout');
  });

  it('denies when the turn is interrupted while asking', async () => {
    const { gate, decisions } = setup();
    const controller = new AbortController();
    const waiting: AskApproval = (_q, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve('once')));
    const pending = gate.check(cleanBuild, opts(waiting, { signal: controller.signal }));
    controller.abort();
    expect((await pending).allowed).toBe(false);
    expect(decisions[0]!.choice).toBe('deny');
  });

  it('denies without asking when already interrupted', async () => {
    const { gate } = setup();
    const controller = new AbortController();
    controller.abort();
    const { ask, questions } = human('once');
    expect((await gate.check(cleanBuild, opts(ask, { signal: controller.signal }))).allowed).toBe(false);
    expect(questions).toEqual([]);
  });

  it('treats an asker that throws as a denial', async () => {
    const { gate } = setup();
    const broken: AskApproval = async () => { throw new Error('no client'); };
    expect((await gate.check(cleanBuild, opts(broken))).allowed).toBe(false);
  });

  it('yolo and mode off allow dangerous calls without asking', async () => {
    const yolo = setup();
    expect((await yolo.gate.check(cleanBuild, opts(human().ask, { yolo: true }))).allowed).toBe(true);
    expect(yolo.decisions[0]!.choice).toBe('yolo');
    const off = setup({ mode: 'off' });
    expect((await off.gate.check(cleanBuild, opts(human().ask))).allowed).toBe(true);
    expect(off.decisions[0]!.choice).toBe('mode-off');
  });

  it('never runs hardline commands: not with yolo, mode off, or an allowlist', async () => {
    const { gate, decisions } = setup({ mode: 'off', allowlist: ['delete.tree@/', 'recursive delete'] });
    const { ask, questions } = human('always');
    const verdict = await gate.check(wipe, opts(ask, { yolo: true }));
    expect(verdict.allowed).toBe(false);
    expect(verdict.allowed ? '' : verdict.message).toMatch(/^BLOCKED: `rm -rf \/` was not run: it is never allowed/);
    expect(questions).toEqual([]);
    expect(decisions).toEqual([
      { sessionId: 's1', toolName: 'terminal', command: 'rm -rf /', patternKey: 'delete.tree@/', choice: 'hardline', at: expect.any(Number) },
    ]);
  });

  it('asks about sensitive file writes with the path and the diff', async () => {
    const { gate, decisions } = setup();
    const { ask, questions } = human('once');
    const write: ApprovalSubject = { kind: 'write', toolName: 'write_file', path: `${home}/.bashrc`, diff: '+alias x=y' };
    expect((await gate.check(write, opts(ask))).allowed).toBe(true);
    expect(questions[0]).toMatchObject({ command: `write ${home}/.bashrc`, diff: '+alias x=y' });
    expect(questions[0]!.findings).toEqual([expect.objectContaining({ rule: 'write.protected', target: 'shell startup file' })]);
    expect(decisions[0]).toMatchObject({ toolName: 'write_file', command: `write ${home}/.bashrc`, choice: 'once' });
  });

  it('blocks hardline file writes', async () => {
    const { gate } = setup({ mode: 'off' });
    const write: ApprovalSubject = { kind: 'write', toolName: 'write_file', path: '/boot/grub/grub.cfg', diff: '' };
    expect((await gate.check(write, opts(human().ask, { yolo: true }))).allowed).toBe(false);
  });

  describe('approvals remember the rule and the target class, not the command', () => {
    const sessionCases: [string, string][] = [
      ['rm -rf ~/.ssh', 'a protected directory'],
      ["rm -rf build2 && sed -i 's/manual/off/' ~/.hermes/config.yaml", "a second finding on hermes's config"],
      ['rm -rf ~', 'a hardline target'],
      ['rm -rf /etc/nginx', 'a system directory'],
    ];
    for (const [command, what] of sessionCases) {
      it(`"session" on \`rm -rf build\` does not cover \`${command}\` (${what})`, async () => {
        const { gate } = setup();
        await gate.check(cleanBuild, opts(human('session').ask));
        const later = human('deny');
        const verdict = await gate.check({ kind: 'command', toolName: 'terminal', command, cwd: project }, opts(later.ask));
        expect(verdict.allowed).toBe(false);
      });
    }

    it('"always" saves one key per finding, and each covers only its own target', async () => {
      const { gate, persisted } = setup();
      const both: ApprovalSubject = { kind: 'command', toolName: 'terminal', command: 'rm -rf build && echo x >> ~/.bashrc', cwd: project };
      expect((await gate.check(both, opts(human('always').ask))).allowed).toBe(true);
      expect(persisted.sort()).toEqual(['delete.recursive@working tree', 'write.protected@shell startup file']);
      const later = human('deny');
      expect((await gate.check({ ...both, command: 'echo y > ~/.ssh/config' }, opts(later.ask))).allowed).toBe(false);
      expect(later.questions).toHaveLength(1);
    });

    it('a legacy allowlist entry ("recursive delete") keeps allowing ordinary targets, never protected ones', async () => {
      const { gate } = setup({ allowlist: ['recursive delete'] });
      const none = human();
      expect((await gate.check(cleanBuild, opts(none.ask))).allowed).toBe(true);
      expect(none.questions).toEqual([]);
      const asked = human('deny');
      expect((await gate.check({ ...cleanBuild, command: 'rm -rf ~/.ssh' }, opts(asked.ask))).allowed).toBe(false);
      expect(asked.questions).toHaveLength(1);
    });

    it('asks once about the union of findings, listing each', async () => {
      const { gate } = setup();
      const { ask, questions } = human('deny');
      await gate.check({ kind: 'command', toolName: 'terminal', command: 'rm -rf build; git reset --hard; cat x > ~/.hermes/config.yaml', cwd: project }, opts(ask));
      expect(questions).toHaveLength(1);
      expect(questions[0]!.findings.map((f) => f.target)).toEqual(expect.arrayContaining(['working tree', '$HERMES_HOME']));
      expect(questions[0]!.findings.length).toBeGreaterThanOrEqual(3);
    });
  });
});
