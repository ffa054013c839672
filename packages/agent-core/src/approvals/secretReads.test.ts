/** Reading `$HERMES_HOME/.env` asks: as a file tool's read or write (real files, links) and as a command's argument. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalGate } from './approvalGate.ts';
import { judgeCommand } from './judge.ts';

const tmp = (prefix: string) => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));

function gateFor(hermesHome: string) {
  return new ApprovalGate({ mode: 'manual', allowlist: [], timeoutMs: 5_000, persistAlways: () => {}, record: () => {}, home: os.homedir(), hermesHome, onError: () => {} });
}

describe('reading the home .env', () => {
  it.each([
    'cat ~/.hermes/.env',
    'cat $HERMES_HOME/.env',
    'less /home/u/.hermes/.env',
    'grep KEY ~/.hermes/.ENV',
    'source ~/.hermes/.env && env',
    '. ../.hermes/./.env',
    'cat < ~/.hermes/.env',
    'docker run --env-file=/home/u/.hermes/.env img',
    'cat ~/.hermes/.e*',
  ])('`%s` asks', async (command) => {
    const verdict = await judgeCommand(command, { home: '/home/u', hermesHome: '/home/u/.hermes', cwd: '/home/u/project' });
    expect(verdict.level).toBe('dangerous');
    expect(verdict.findings.map((f) => `${f.rule}@${f.target}`)).toContain('read.secrets@$HERMES_HOME/.env');
  });

  it.each(['cat .env', 'cat ~/.hermes/config.yaml', 'ls ~/.hermes', 'cat project/.env.example'])('`%s` does not ask about the home .env', async (command) => {
    const verdict = await judgeCommand(command, { home: '/home/u', hermesHome: '/home/u/.hermes', cwd: '/home/u/project' });
    expect(verdict.findings.map((f) => f.rule)).not.toContain('read.secrets');
  });

  it('a file tool reading it asks, by its path, another case, `..` or a link; other files do not', async () => {
    const home = tmp('hermes-gate-home-');
    const project = tmp('hermes-gate-project-');
    fs.writeFileSync(path.join(home, '.env'), 'K=v\n');
    fs.writeFileSync(path.join(project, 'notes.txt'), 'x\n');
    fs.symlinkSync(path.join(home, '.env'), path.join(project, 'innocent.txt'));
    fs.linkSync(path.join(home, '.env'), path.join(project, 'hardlink.txt'));
    const gate = gateFor(home);
    const judged = async (p: string) => (await gate.judge({ kind: 'read', toolName: 'read_file', path: p })).findings.map((f) => `${f.rule}@${f.target}`);
    for (const p of [path.join(home, '.env'), path.join(home, '.ENV'), path.join(project, '..', path.basename(home), 'x', '..', '.env'), path.join(project, 'innocent.txt'), path.join(project, 'hardlink.txt')]) {
      expect(await judged(p), p).toEqual(['read.secrets@$HERMES_HOME/.env']);
    }
    expect(await judged(path.join(project, 'notes.txt'))).toEqual([]);
    expect(await judged(path.join(home, 'config.yaml'))).toEqual([]);
    // A write through the link is a write of the .env.
    const write = await gate.judge({ kind: 'write', toolName: 'write_file', path: path.join(project, 'innocent.txt'), diff: '' });
    expect(write.findings.map((f) => `${f.rule}@${f.target}`)).toEqual(['write.protected@$HERMES_HOME']);
  });

  it('a denied read is blocked; nobody to ask means denied', async () => {
    const home = tmp('hermes-gate-home-');
    const verdict = await gateFor(home).check(
      { kind: 'read', toolName: 'read_file', path: path.join(home, '.env') },
      { sessionId: 's', yolo: false, ask: async () => 'deny', signal: new AbortController().signal },
    );
    expect(verdict).toMatchObject({ allowed: false, message: expect.stringMatching(/^BLOCKED: `read .*\.env` was not run/) });
  });
});
