/**
 * Attacks on the approval gate, end to end: the scripted model asks the real backend's terminal tool
 * to run a disguised destructive command with real bash, in a throwaway HOME (so `~` is that dir,
 * and HERMES_HOME is its `.hermes`) and a project inside it. Every question is denied (or none is
 * asked, for hardline commands); then the files on disk must be exactly as they were, and the model
 * must be told BLOCKED.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '@hermes/agent-core';
import { startModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import type { ApprovalChoice, EventOf, ServerRequestMap } from '../protocol/index.ts';
import { expectWireFindings } from '../testing/approvalFindings.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

type ApprovalParams = ServerRequestMap['approval']['params'];

const CONFIG = 'approvals:\n  mode: manual\n';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A throwaway HOME with files worth protecting; `planted` keeps what each file held. */
interface Box {
  home: string;
  hermesHome: string;
  project: string;
  planted: Map<string, string>;
}

function makeBox(): Box {
  const home = tempDir('hermes-attack-');
  const box: Box = { home, hermesHome: path.join(home, '.hermes'), project: path.join(home, 'project'), planted: new Map() };
  plant(box, path.join(home, 'marker.txt'), 'still here');
  plant(box, path.join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
  plant(box, path.join(box.hermesHome, 'config.yaml'), CONFIG);
  for (const dir of ['victim', 'build', 'build2']) plant(box, path.join(box.project, dir, 'keep.txt'), `${dir} contents`);
  return box;
}

function plant(box: Box, file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  box.planted.set(file, content);
}

/** Planted files that are gone or no longer hold what they were given, relative to HOME. */
function changed(box: Box): string[] {
  const differs = (file: string, content: string) => !fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== content;
  return [...box.planted].filter(([file, content]) => differs(file, content)).map(([file]) => path.relative(box.home, file));
}

/** One call of the terminal tool per step, one turn each; every question is answered as its step says. */
async function attack(box: Box, steps: { command: string; answer: ApprovalChoice }[]) {
  const turns: Turn[] = steps.flatMap(({ command }) => [{ tool_calls: [{ name: 'terminal', arguments: { command } }] }, { text: 'done' }]);
  const server = await startModelServer({ turns });
  cleanups.push(() => server.close());
  const backend = new BackendProcess({
    home: box.hermesHome,
    env: { HOME: box.home },
    cwd: box.project,
    args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'],
  });
  cleanups.push(() => backend.stop());
  // A backend that dies (e.g. its bundle rebuilt under it) fails the case with its stderr, not a timeout.
  const died = backend.exited.then((code) => Promise.reject(new Error(`backend exited (${code}): ${backend.stderr}`)));
  died.catch(() => undefined);
  const live = <T>(p: Promise<T>) => Promise.race([p, died]);
  const asked: ApprovalParams[] = [];
  backend.connection.onRequest('approval', (params: ApprovalParams) => {
    asked.push(params);
    return { choice: steps.find((s) => s.command === params.command)?.answer ?? 'deny' };
  });
  const session = await live(backend.request('session.create', { cwd: box.project }));
  const results: { text: string; blocked: boolean | undefined }[] = [];
  for (const [i, step] of steps.entries()) {
    await live(backend.request('prompt.submit', { session_id: session.session_id, text: `step ${i + 1}` }));
    const done = (e: { type: string }) => e.type === 'message.complete';
    await live(backend.waitForEvent(() => backend.eventsOf(session.session_id).filter(done).length > i));
    const body = server.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
    const completes = backend.events.filter((e) => e.type === 'tool.complete') as EventOf<'tool.complete'>[];
    expect(completes, `step ${i + 1} (${step.command}) completed`).toHaveLength(i + 1);
    results.push({ text: body.messages.filter((m) => m.role === 'tool').at(-1)!.content, blocked: completes.at(-1)!.payload!.blocked });
  }
  return { asked, results };
}

/** The wire's findings: plain {level, rule, target, why} objects, including the ones named. */
function expectFindings(question: ApprovalParams, expected: { rule: string; target: string }[]): void {
  expectWireFindings(question.findings);
  for (const { rule, target } of expected) expect(question.findings).toContainEqual(expect.objectContaining({ rule, target }));
}

const DENIED = /^BLOCKED: .*the user denied it/s;
const REFUSED = /^BLOCKED: .*never allowed/s;

describe('attacks on the approval gate through the real backend and bash', () => {
  // Each: the command (built from the box's paths), and what the question must name; null: hardline,
  // refused without a question.
  const single: { name: string; command: (b: Box) => string; findings: { rule: string; target: string }[] | null }[] = [
    {
      name: "a newline after a comment with an apostrophe (`# don't`) starts a second command",
      command: (b) => `echo hi # don't worry\nrm -rf ${path.join(b.project, 'victim')}`,
      findings: [{ rule: 'delete.recursive', target: 'working tree' }],
    },
    {
      name: 'fullwidth apostrophes (U+FF07) are not quotes: the rm between them runs',
      command: (b) => `echo ＇; rm -rf ${path.join(b.project, 'victim')}; echo ＇`,
      findings: [{ rule: 'delete.recursive', target: 'working tree' }],
    },
    { name: 'rm --r of the home directory written out', command: (b) => `rm --r ${b.home}`, findings: null },
    {
      name: 'cd into $HERMES_HOME, then a relative sed -i of config.yaml',
      command: () => "cd ~/.hermes && sed -i 's/manual/off/' config.yaml",
      findings: [{ rule: 'write.protected', target: '$HERMES_HOME' }],
    },
    { name: "echo 'rm -rf ~' | sh", command: () => "echo 'rm -rf ~' | sh", findings: null },
  ];

  for (const c of single) {
    it(`${c.findings ? 'asks, and a denial stops' : 'refuses without asking'}: ${c.name}`, async () => {
      const box = makeBox();
      const { asked, results } = await attack(box, [{ command: c.command(box), answer: 'deny' }]);
      if (c.findings) {
        expect(asked).toHaveLength(1);
        expectFindings(asked[0]!, c.findings);
      } else expect(asked).toEqual([]);
      expect(results[0]!.blocked).toBe(true);
      expect(results[0]!.text).toMatch(c.findings ? DENIED : REFUSED);
      expect(changed(box)).toEqual([]);
    });
  }

  // An approval remembers (rule, target): a recursive delete in the working tree, not anything that
  // comes in the same command or hits a protected place.
  const followUps: { name: string; command: string; findings: { rule: string; target: string }[] }[] = [
    { name: 'rm -rf ~/.ssh', command: 'rm -rf ~/.ssh', findings: [{ rule: 'delete.recursive', target: '~/.ssh' }] },
    {
      name: 'rm -rf build2 && sed -i of ~/.hermes/config.yaml',
      command: "rm -rf build2 && sed -i 's/manual/off/' ~/.hermes/config.yaml",
      findings: [{ rule: 'write.protected', target: '$HERMES_HOME' }],
    },
  ];

  for (const choice of ['session', 'always'] as const) {
    for (const f of followUps) {
      it(`"${choice}" on rm -rf build does not cover ${f.name}: it asks, and a denial stops it`, async () => {
        const box = makeBox();
        const { asked, results } = await attack(box, [
          { command: 'rm -rf build', answer: choice },
          { command: f.command, answer: 'deny' },
        ]);
        expect(asked.map((q) => q.command)).toEqual(['rm -rf build', f.command]);
        expectFindings(asked[0]!, [{ rule: 'delete.recursive', target: 'working tree' }]);
        expectFindings(asked[1]!, f.findings);
        expect(results[0]!.blocked).toBeFalsy();
        expect(results[1]!.blocked).toBe(true);
        expect(results[1]!.text).toMatch(DENIED);
        const config = path.join('.hermes', 'config.yaml');
        // The approved delete ran; "always" also rewrote config.yaml, with its allowlist entry only.
        expect(changed(box)).toEqual(choice === 'always' ? [config, 'project/build/keep.txt'] : ['project/build/keep.txt']);
        const { config: loaded } = loadConfig(box.hermesHome);
        expect(loaded.approvals.mode).toBe('manual');
        expect(loaded.command_allowlist).toEqual(choice === 'always' ? ['delete.recursive@working tree'] : []);
      });
    }
  }
});
