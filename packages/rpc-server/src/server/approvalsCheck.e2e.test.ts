/**
 * `approvals.check` over real pipes: the backend `hermes approvals check` starts (`--judge-only`), with
 * HOME and HERMES_HOME pointing at directories that do not exist and must not come to exist, and the
 * ordinary backend, which serves the method without a session too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode, type ApprovalsCheckParams } from '../protocol/index.ts';
import { expectWireFindings } from '../testing/approvalFindings.ts';
import { BackendProcess } from '../testing/backendProcess.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A HOME that does not exist (never created by the test), with HERMES_HOME and a project inside. */
function absentHome() {
  const home = path.join(os.tmpdir(), `hermes-absent-home-${process.pid}-${Math.random().toString(36).slice(2)}`);
  return { home, hermesHome: path.join(home, '.hermes'), project: path.join(home, 'project') };
}

async function start(options: { judgeOnly: boolean; home?: string; hermesHome?: string }): Promise<BackendProcess> {
  const backend = new BackendProcess({
    args: options.judgeOnly ? ['--judge-only'] : [],
    ...(options.hermesHome ? { home: options.hermesHome } : {}),
    ...(options.home ? { env: { HOME: options.home } } : {}),
    // The backend's own cwd must exist; the judged cwd is a param.
    cwd: os.tmpdir(),
  });
  cleanups.push(() => backend.stop());
  await backend.waitForEvent((e) => e.type === 'gateway.ready');
  return backend;
}

/** The JSON-RPC error a request is answered with (fails the test if it succeeds). */
async function errorOf(backend: BackendProcess, params: unknown): Promise<{ code: number; message: string; data?: { field?: string } }> {
  try {
    await backend.request('approvals.check', params as ApprovalsCheckParams);
  } catch (error) {
    return error as { code: number; message: string; data?: { field?: string } };
  }
  throw new Error(`approvals.check accepted ${JSON.stringify(params)}`);
}

describe('approvals.check on a --judge-only backend', () => {
  it('judges commands and writes against the backend HOME and HERMES_HOME, and creates nothing there', async () => {
    const { home, hermesHome, project } = absentHome();
    const backend = await start({ judgeOnly: true, home, hermesHome });

    expect(await backend.request('approvals.check', { command: 'ls -la', cwd: project })).toEqual({ level: 'safe', findings: [] });

    const wipe = await backend.request('approvals.check', { command: 'rm -rf ~', cwd: project });
    expect(wipe.level).toBe('hardline');
    expectWireFindings(wipe.findings);

    // Only a judge that knows this HOME and this HERMES_HOME sees these writes as sensitive.
    const keys = await backend.request('approvals.check', { write_path: path.join(home, '.ssh', 'authorized_keys') });
    expect(keys.level).not.toBe('safe');
    const config = await backend.request('approvals.check', { write_path: path.join(hermesHome, 'config.yaml') });
    expect(config.level).not.toBe('safe');
    // A relative path is judged from `cwd`.
    expect(await backend.request('approvals.check', { write_path: 'config.yaml', cwd: hermesHome })).toEqual(config);

    expect(await backend.stop()).toBe(0);
    cleanups.pop();
    expect(backend.stderr).not.toMatch(/ ERROR \[/);
    expect(fs.existsSync(home)).toBe(false);
  });

  it('answers -32602 naming the field when not exactly one of command and write_path is given', async () => {
    const backend = await start({ judgeOnly: true, ...absentHome() });
    const neither = await errorOf(backend, { cwd: '/tmp' });
    expect(neither.code).toBe(ErrorCode.InvalidParams);
    expect(neither.message).toMatch(/`command` is required/);
    expect(neither.data?.field).toBe('command');

    const both = await errorOf(backend, { command: 'ls', write_path: '/tmp/x' });
    expect(both.code).toBe(ErrorCode.InvalidParams);
    expect(both.message).toMatch(/`write_path` cannot be given together with `command`/);
    expect(both.data?.field).toBe('write_path');

    const wrongType = await errorOf(backend, { command: 42 });
    expect([wrongType.code, wrongType.data?.field]).toEqual([ErrorCode.InvalidParams, 'command']);
    expect(wrongType.message).toMatch(/`command` must be a string/);

    const empty = await errorOf(backend, { write_path: '' });
    expect([empty.code, empty.data?.field]).toEqual([ErrorCode.InvalidParams, 'write_path']);
  });

  it('serves nothing else: sessions (and so the model) are not there', async () => {
    const backend = await start({ judgeOnly: true, ...absentHome() });
    await expect(backend.request('session.create', {})).rejects.toMatchObject({
      code: ErrorCode.MethodNotFound,
      message: expect.stringMatching(/--judge-only/),
    });
  });
});

describe('approvals.check on the ordinary backend', () => {
  it('needs no session', async () => {
    const backend = await start({ judgeOnly: false });
    expect(await backend.request('approvals.check', { command: 'git status' })).toEqual({ level: 'safe', findings: [] });
    const verdict = await backend.request('approvals.check', { command: 'rm -rf ~' });
    expect(verdict.level).toBe('hardline');
    expect((await errorOf(backend, {})).code).toBe(ErrorCode.InvalidParams);
  });
});
