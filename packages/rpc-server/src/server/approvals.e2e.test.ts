/**
 * The approval gate end to end: the real backend process, a scripted model asking for dangerous
 * commands, and a client answering the backend's `approval` requests (or not).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lastToolResult } from '../testing/modelRequests.ts';
import { startApprovalBackend } from '../testing/approvalBackend.ts';
import { startModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import type { ApprovalChoice, EventOf, HermesEvent, ServerRequestMap } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

type ApprovalParams = ServerRequestMap['approval']['params'];

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function tmpDir(prefix: string): string {
  return tempDir(prefix);
}

/** A scripted model that runs `command` with the terminal tool, then says "done". */
function runCommand(command: string): Turn[] {
  return [{ tool_calls: [{ name: 'terminal', arguments: { command } }] }, { text: 'done' }];
}

async function start(options: {
  turns: Turn[];
  answer?: (params: ApprovalParams) => ApprovalChoice | null | Promise<ApprovalChoice | null>;
  home?: string;
  config?: string;
  env?: Record<string, string>;
}) {
  const home = options.home ?? tmpDir('hermes-home-');
  if (options.config) fs.writeFileSync(path.join(home, 'config.yaml'), options.config);
  const answer = options.answer ?? (() => 'deny' as const);
  return { ...(await startApprovalBackend({ turns: options.turns, home, env: options.env, answer }, (cleanup) => cleanups.push(cleanup))), home };
}

async function turn(backend: BackendProcess, sessionId: string, text: string): Promise<EventOf<'message.complete'>> {
  const before = backend.eventsOf(sessionId).filter((e) => e.type === 'message.complete').length;
  await backend.request('prompt.submit', { session_id: sessionId, text });
  await backend.waitForEvent(
    () => backend.eventsOf(sessionId).filter((e) => e.type === 'message.complete').length > before,
  );
  return backend.eventsOf(sessionId).filter((e) => e.type === 'message.complete').at(-1) as EventOf<'message.complete'>;
}

function toolCompletes(events: HermesEvent[]): EventOf<'tool.complete'>[] {
  return events.filter((e) => e.type === 'tool.complete') as EventOf<'tool.complete'>[];
}

describe('approval gate over the wire', () => {
  it('deny: the command does not run and the model is told BLOCKED, not to retry', async () => {
    const target = tmpDir('hermes-target-');
    fs.writeFileSync(path.join(target, 'keep.txt'), 'precious');
    const { backend, server, asked } = await start({ turns: runCommand(`rm -rf ${target}`), answer: () => 'deny' });
    const session = await backend.request('session.create', {});
    const done = await turn(backend, session.session_id, 'clean up');
    expect(done.payload!.status).toBe('complete');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      session_id: session.session_id,
      tool_name: 'terminal',
      command: `rm -rf ${target}`,
      choices: ['once', 'session', 'always', 'deny'],
      request_id: expect.stringMatching(/^srq-/),
    });
    expect(asked[0]!.description.length).toBeGreaterThan(0);
    // Every finding of the gate goes over the wire; the delete's names the directory it deletes.
    expect(asked[0]!.findings).toContainEqual({
      level: 'dangerous',
      rule: expect.any(String),
      target: expect.any(String),
      why: expect.stringContaining(target),
      line: 1,
    });
    expect(fs.existsSync(path.join(target, 'keep.txt'))).toBe(true);
    const [complete] = toolCompletes(backend.events);
    expect(complete!.payload).toMatchObject({ name: 'terminal', blocked: true });
    expect(lastToolResult(server)).toMatch(/^BLOCKED:/);
    expect(lastToolResult(server)).toMatch(/not (to )?retry/i);
  });

  it('once: the command runs, and the next one asks again', async () => {
    const a = tmpDir('hermes-a-');
    const b = tmpDir('hermes-b-');
    const { backend, asked } = await start({
      turns: [...runCommand(`rm -rf ${a}`), ...runCommand(`rm -rf ${b}`)],
      answer: () => 'once',
    });
    const session = await backend.request('session.create', {});
    await turn(backend, session.session_id, 'remove a');
    expect(fs.existsSync(a)).toBe(false);
    await turn(backend, session.session_id, 'remove b');
    expect(fs.existsSync(b)).toBe(false);
    expect(asked).toHaveLength(2);
    expect(toolCompletes(backend.events).every((e) => !e.payload!.blocked)).toBe(true);
  });

  it('session: stops asking for that pattern in that session only', async () => {
    const dirs = [tmpDir('hermes-s1-'), tmpDir('hermes-s2-'), tmpDir('hermes-s3-')];
    const { backend, asked } = await start({
      turns: dirs.flatMap((d) => runCommand(`rm -rf ${d}`)),
      answer: () => 'session',
    });
    const first = await backend.request('session.create', {});
    await turn(backend, first.session_id, 'one');
    await turn(backend, first.session_id, 'two');
    expect(asked.map((q) => q.session_id)).toEqual([first.session_id]);
    const second = await backend.request('session.create', {});
    await turn(backend, second.session_id, 'three');
    expect(asked.map((q) => q.session_id)).toEqual([first.session_id, second.session_id]);
    expect(dirs.map((d) => fs.existsSync(d))).toEqual([false, false, false]);
  });

  it('always: saved to config.yaml and honoured after a backend restart', async () => {
    const home = tmpDir('hermes-home-');
    const a = tmpDir('hermes-a-');
    const first = await start({ home, turns: runCommand(`rm -rf ${a}`), answer: () => 'always' });
    const s1 = await first.backend.request('session.create', {});
    await turn(first.backend, s1.session_id, 'remove a');
    expect(fs.existsSync(a)).toBe(false);
    await first.backend.stop();
    const saved = fs.readFileSync(path.join(home, 'config.yaml'), 'utf8');
    expect(saved).toMatch(/command_allowlist:/);
    expect(saved).not.toMatch(/command_allowlist:\s*\n\s*- rm\s*$/m);

    const b = tmpDir('hermes-b-');
    const second = await start({ home, turns: runCommand(`rm -rf ${b}`), answer: () => 'deny' });
    const s2 = await second.backend.request('session.create', {});
    await turn(second.backend, s2.session_id, 'remove b');
    expect(second.asked).toHaveLength(0);
    expect(fs.existsSync(b)).toBe(false);
  });

  it('timeout: no answer in approvals.timeout denies and withdraws the question', async () => {
    const target = tmpDir('hermes-t-');
    const { backend, asked } = await start({
      turns: runCommand(`rm -rf ${target}`),
      answer: () => null,
      config: 'approvals:\n  timeout: 0.3\n',
    });
    const session = await backend.request('session.create', {});
    await turn(backend, session.session_id, 'remove');
    expect(asked).toHaveLength(1);
    expect(fs.existsSync(target)).toBe(true);
    const cancel = backend.events.find((e) => e.type === 'request.cancel') as EventOf<'request.cancel'>;
    expect(cancel.payload).toEqual({ id: asked[0]!.request_id, method: 'approval', reason: 'timeout' });
    expect(toolCompletes(backend.events)[0]!.payload!.blocked).toBe(true);
  });

  it('interrupt while a question is open: withdrawn, the command does not run, the turn ends interrupted', async () => {
    const target = tmpDir('hermes-i-');
    const { backend, asked } = await start({ turns: runCommand(`rm -rf ${target}`), answer: () => null });
    const session = await backend.request('session.create', {});
    await backend.request('prompt.submit', { session_id: session.session_id, text: 'remove' });
    await vi.waitFor(() => expect(asked).toHaveLength(1), { timeout: 15_000 });
    await backend.request('session.interrupt', { session_id: session.session_id });
    const done = (await backend.waitForEvent((e) => e.type === 'message.complete')) as EventOf<'message.complete'>;
    expect(done.payload!.status).toBe('interrupted');
    const cancel = backend.events.find((e) => e.type === 'request.cancel') as EventOf<'request.cancel'>;
    expect(cancel.payload).toMatchObject({ id: asked[0]!.request_id, reason: 'interrupted' });
    expect(fs.existsSync(target)).toBe(true);
  });

  it('session.close while a question is open: withdrawn with request.cancel (session_closed), the command does not run', async () => {
    const target = tmpDir('hermes-c-');
    const { backend, asked } = await start({ turns: runCommand(`rm -rf ${target}`), answer: () => null });
    const session = await backend.request('session.create', {});
    await backend.request('prompt.submit', { session_id: session.session_id, text: 'remove' });
    await vi.waitFor(() => expect(asked).toHaveLength(1), { timeout: 15_000 });
    expect(await backend.request('session.close', { session_id: session.session_id })).toEqual({ closed: true });
    const cancel = (await backend.waitForEvent((e) => e.type === 'request.cancel')) as EventOf<'request.cancel'>;
    expect(cancel).toMatchObject({ session_id: session.session_id, payload: { id: asked[0]!.request_id, method: 'approval', reason: 'session_closed' } });
    const seqs = backend.eventsOf(session.session_id).map((e) => e.seq!);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(fs.existsSync(target)).toBe(true);
  });

  it('a client without a handler (-32601) gets deny', async () => {
    const target = tmpDir('hermes-n-');
    const server = await startModelServer({ turns: runCommand(`rm -rf ${target}`) });
    cleanups.push(() => server.close());
    const backend = new BackendProcess({ args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'm'] });
    cleanups.push(() => backend.stop());
    const session = await backend.request('session.create', {});
    await turn(backend, session.session_id, 'remove');
    expect(fs.existsSync(target)).toBe(true);
    expect(lastToolResult(server)).toMatch(/^BLOCKED:/);
  });

  it('approval.respond answers a question for clients without server requests', async () => {
    const target = tmpDir('hermes-r-');
    let backendRef: BackendProcess | null = null;
    const { backend } = await start({
      turns: runCommand(`rm -rf ${target}`),
      answer: (params) => {
        // Answer through the v1 method instead of the response.
        void backendRef!.request('approval.respond', {
          session_id: params.session_id,
          request_id: params.request_id!,
          choice: 'once',
        });
        return null;
      },
    });
    backendRef = backend;
    const session = await backend.request('session.create', {});
    await turn(backend, session.session_id, 'remove');
    expect(fs.existsSync(target)).toBe(false);
  });

  it('a write to a sensitive file asks with the diff, and a denial leaves the file as it was', async () => {
    const cwd = tmpDir('hermes-project-');
    fs.writeFileSync(path.join(cwd, '.env'), 'API_KEY=old\n');
    const { backend, asked } = await start({
      turns: [
        { tool_calls: [{ name: 'patch', arguments: { path: '.env', old_string: 'API_KEY=old', new_string: 'API_KEY=new' } }] },
        { text: 'ok' },
      ],
      answer: () => 'deny',
    });
    const session = await backend.request('session.create', { cwd });
    await turn(backend, session.session_id, 'rotate the key');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ tool_name: 'patch', command: expect.stringContaining('.env') });
    expect(asked[0]!.diff).toMatch(/-API_KEY=old\n\+API_KEY=new/);
    expect(fs.readFileSync(path.join(cwd, '.env'), 'utf8')).toBe('API_KEY=old\n');
  });

  it('hardline commands never run, not even in yolo mode, and nobody is asked', async () => {
    const fakeHome = tmpDir('hermes-fakehome-');
    fs.writeFileSync(path.join(fakeHome, 'marker.txt'), 'still here');
    const { backend, asked, server } = await start({
      turns: runCommand('rm -rf ~'),
      answer: () => 'once',
      env: { HOME: fakeHome },
    });
    const session = await backend.request('session.create', {});
    await backend.request('config.set', { key: 'yolo', value: true, session_id: session.session_id });
    await turn(backend, session.session_id, 'wipe home');
    expect(asked).toHaveLength(0);
    expect(fs.existsSync(path.join(fakeHome, 'marker.txt'))).toBe(true);
    expect(lastToolResult(server)).toMatch(/^BLOCKED:/);
  });

  it('yolo runs dangerous commands without asking; decisions are recorded in the store', async () => {
    const target = tmpDir('hermes-y-');
    const { backend, asked, home } = await start({ turns: runCommand(`rm -rf ${target}`) });
    const session = await backend.request('session.create', {});
    expect(await backend.request('config.set', { key: 'yolo', value: true, session_id: session.session_id })).toMatchObject({
      key: 'yolo',
      value: true,
    });
    await turn(backend, session.session_id, 'remove');
    expect(asked).toHaveLength(0);
    expect(fs.existsSync(target)).toBe(false);
    await backend.stop();
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(path.join(home, 'state.db'), { readonly: true });
    const rows = db.prepare('SELECT command, choice FROM approval_decisions').all();
    db.close();
    expect(rows).toEqual([{ command: `rm -rf ${target}`, choice: 'yolo' }]);
  });
});
