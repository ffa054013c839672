/**
 * `hermes approvals check` end to end: the real bundle and its `--judge-only` backend. The whole gate
 * corpus goes through one `--json` process, with HOME and HERMES_HOME pointing at directories that do
 * not exist; afterwards they still do not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { HERMES_BIN } from '../testing/ptyHarness.ts';
import { CLEAN_ENV } from '../testing/realBackend.ts';

// shared/ lies beside the repository, here and in CI.
const CORPUS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/security/gate-corpus.json');
const RANK = { safe: 0, dangerous: 1, hardline: 2 } as const;
type Level = keyof typeof RANK;

interface Row {
  cmd: string;
  why: string;
  expect?: Level;
  kind?: 'write';
}

/** A HOME that is never created: the corpus's /home/alice, HERMES_HOME inside it, cwd its project. */
function absentHome() {
  const home = path.join(os.tmpdir(), `hermes-alice-${process.pid}-${Math.random().toString(36).slice(2)}`);
  return { home, env: { ...CLEAN_ENV, HOME: home, HERMES_HOME: path.join(home, '.hermes') }, project: path.join(home, 'project') };
}

function check(args: string[], env: Record<string, string | undefined>, input?: string) {
  return execa(process.execPath, [HERMES_BIN, 'approvals', 'check', ...args], {
    env,
    cwd: os.tmpdir(),
    reject: false,
    ...(input === undefined ? { stdin: 'ignore' as const } : { input }),
  });
}

const answers = (stdout: string) => stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('hermes approvals check --json', () => {
  it('judges the whole gate corpus in one process: every catch at least its level, every pass safe, nothing created', async () => {
    const corpus = JSON.parse(fs.readFileSync(CORPUS, 'utf8')) as Record<'catch' | 'pass' | 'debatable', Row[]>;
    const { home, env, project } = absentHome();
    // The corpus is written for /home/alice; here home is a path that does not exist.
    const rehome = (text: string) => text.replace(/\/home\/alice(?=$|[^\w.-])/g, home);
    const rows = [
      ...corpus.catch.map((row) => ({ ...row, group: 'catch' as const })),
      ...corpus.pass.map((row) => ({ ...row, group: 'pass' as const })),
      ...corpus.debatable.map((row) => ({ ...row, group: 'debatable' as const })),
    ];
    const input = rows
      .map((row) => JSON.stringify(row.kind === 'write' ? { write_path: rehome(row.cmd), cwd: project } : { command: rehome(row.cmd), cwd: project }))
      .join('\n');

    const result = await check(['--json'], env, `${input}\n`);
    const out = answers(result.stdout);
    expect(out, result.stderr).toHaveLength(rows.length);

    const wrong: string[] = [];
    rows.forEach((row, i) => {
      const answer = out[i]!;
      const level = answer.level as Level | undefined;
      if (!level || !(level in RANK)) wrong.push(`${row.group} ${JSON.stringify(row.cmd)}: no verdict: ${JSON.stringify(answer)}`);
      else if (row.group === 'catch' && RANK[level] < RANK[row.expect!]) wrong.push(`catch ${JSON.stringify(row.cmd)} (${row.why}): ${level}, want ${row.expect}`);
      else if (row.group === 'pass' && level !== 'safe') wrong.push(`pass ${JSON.stringify(row.cmd)} (${row.why}): ${level} ${JSON.stringify(answer.findings)}`);
    });
    expect(wrong, `${wrong.length} of ${rows.length} rows judged wrong`).toEqual([]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(fs.existsSync(home)).toBe(false);
    // The whole corpus through one CLI and backend: more than the default 30 s on a loaded 2-core machine.
  }, 120_000);

  it('answers a malformed line with {"error"} and goes on with the next lines, in order', async () => {
    const { home, env, project } = absentHome();
    const lines = ['this is not json', '', '{"command": "ls", "cwd": "' + project + '"}', '[1, 2]', '{"command": "ls", "write_path": "x"}', '{"write_path": "notes.txt"}'];
    const result = await check(['--json'], env, `${lines.join('\n')}\n`);
    const out = answers(result.stdout);
    expect(out).toHaveLength(5);
    expect(out[0]).toEqual({ error: expect.stringMatching(/not JSON/) });
    expect(out[1]).toEqual({ level: 'safe', findings: [] });
    expect(out[2]).toEqual({ error: expect.stringMatching(/one JSON object/) });
    expect(out[3]).toEqual({ error: expect.stringMatching(/`write_path` cannot be given together with `command`/) });
    expect(out[4]).toEqual({ level: 'safe', findings: [] });
    // Some line failed: the output is complete, the status says so.
    expect(result.exitCode).toBe(1);
    expect(fs.existsSync(home)).toBe(false);
  });

  it('streams: each answer comes out before the next line goes in', async () => {
    const { env, project } = absentHome();
    const child = execa(process.execPath, [HERMES_BIN, 'approvals', 'check', '--json'], { env, cwd: os.tmpdir(), reject: false });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    for (const command of ['rm -rf ~', 'echo hi']) {
      child.stdin.write(`${JSON.stringify({ command, cwd: project })}\n`);
      const { value } = await lines.next();
      expect(JSON.parse(value as string)).toMatchObject({ level: command === 'echo hi' ? 'safe' : 'hardline' });
    }
    child.stdin.end();
    expect((await child).exitCode).toBe(0);
  });
});

describe('hermes approvals check', () => {
  it('prints the verdict, then each finding with its level, rule, target and why; exit 0', async () => {
    const { home, env, project } = absentHome();
    const result = await check(['rm -rf ~', '--cwd', project], env);
    expect(result.exitCode, result.stderr).toBe(0);
    const [verdict, ...findings] = result.stdout.split('\n').filter(Boolean);
    expect(verdict).toBe('hardline');
    expect(findings.length).toBeGreaterThan(0);
    expect(findings[0]).toMatch(/^ {2}hardline +\S/);

    const write = await check(['--write', path.join(home, '.hermes', 'config.yaml')], env);
    expect(write.exitCode, write.stderr).toBe(0);
    expect(write.stdout.split('\n')[0]).toMatch(/^(dangerous|hardline)$/);

    expect((await check(['ls'], env)).stdout).toBe('safe');
    expect(fs.existsSync(home)).toBe(false);
  });

  it('exits 2 with the usage text on a usage error, before starting a backend', async () => {
    const { env } = absentHome();
    for (const args of [[], ['rm', 'x'], ['ls', '--write', 'x'], ['--json', 'ls']]) {
      const result = await check(args, env);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toContain("hermes approvals check '<command>' [--cwd DIR]");
    }
  });
});
