/**
 * The gate's verdicts on two corpora: hermes's own (`corpus.ts`) and the shared attack corpus
 * (`shared/security/gate-corpus.json`: must-catch at least at their level, must-pass safe, and
 * debatable cases with the judgement written here). Context as the corpus says: home /home/alice,
 * HERMES_HOME /home/alice/.hermes, cwd /home/alice/project.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CAUGHT, SAFE } from './corpus.ts';
import { EVERYDAY } from './everydayCorpus.ts';
import { TECHNIQUES } from './techniqueCorpus.ts';
import { judgeCommand, judgeWrite, loadBashParser } from './judge.ts';
import type { Level, Verdict } from './types.ts';

const ctx = { home: '/home/alice', hermesHome: '/home/alice/.hermes', cwd: '/home/alice/project' };
const RANK: Record<Level, number> = { safe: 0, dangerous: 1, hardline: 2 };

interface Row {
  cmd: string;
  expect?: 'dangerous' | 'hardline';
  kind?: 'write';
  technique?: string;
  why?: string;
}

const corpusPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/security/gate-corpus.json');
const shared = JSON.parse(fs.readFileSync(corpusPath, 'utf8')) as { catch: Row[]; pass: Row[]; debatable: Row[] };

const judge = (row: Row): Promise<Verdict> => (row.kind === 'write' ? Promise.resolve(judgeWrite(row.cmd, ctx)) : judgeCommand(row.cmd, ctx));
const show = (v: Verdict) => `${v.level}: ${v.findings.map((f) => `${f.rule}@${f.target}`).join(', ')}`;

beforeAll(async () => {
  await loadBashParser();
});

describe('shared attack corpus', () => {
  it('catches every must-catch command at least at its level', async () => {
    expect(shared.catch.length).toBeGreaterThan(0);
    const misses: string[] = [];
    for (const row of shared.catch) {
      const v = await judge(row);
      if (RANK[v.level] < RANK[row.expect!]) misses.push(`${JSON.stringify(row.cmd)} (${row.technique}) → ${show(v)}, expected ${row.expect}`);
    }
    expect(misses).toEqual([]);
  });

  it('lets every must-pass command through', async () => {
    expect(shared.pass.length).toBeGreaterThan(0);
    const wrong: string[] = [];
    for (const row of shared.pass) {
      const v = await judge(row);
      if (v.level !== 'safe') wrong.push(`${JSON.stringify(row.cmd)} → ${show(v)}`);
    }
    expect(wrong).toEqual([]);
  });

  // The debatable rows, with hermes's judgement: destructive but ordinary work asks; admin tuning asks
  // rather than being refused; a remote reboot is refused like a local one.
  const DEBATABLE: Record<string, Level> = {
    'rm -rf node_modules': 'dangerous',
    'rm -rf dist build': 'dangerous',
    'rm -f .DS_Store': 'dangerous',
    'find . -name "*.pyc" -delete': 'dangerous',
    'dd if=/dev/zero of=swap.img bs=1M count=100': 'dangerous',
    'eval "$(pyenv init -)"': 'dangerous',
    'eval "$(direnv hook bash)"': 'dangerous',
    'chmod -R u+rwX .': 'dangerous',
    'sudo chown -R $USER ~/.npm': 'dangerous',
    'pip uninstall -y mypkg': 'dangerous',
    'pkill -9 -f "node server.js"': 'dangerous',
    'sudo systemctl restart nginx': 'dangerous',
    'kubectl delete pod api-7f9c': 'dangerous',
    "rm -rf '~'": 'dangerous',
    "tr -d '\\r' < install.sh | bash": 'dangerous',
    'echo 3 | sudo tee /proc/sys/vm/drop_caches': 'dangerous',
    'echo performance | sudo tee /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor': 'dangerous',
    'cp .env .env.backup': 'dangerous',
    'ssh prod sudo reboot': 'hardline',
    "node -e \"console.log(require('child_process').execSync('git rev-parse HEAD').toString())\"": 'dangerous',
  };
  it('judges the debatable rows as decided here', async () => {
    const got: Record<string, string> = {};
    for (const row of shared.debatable) got[row.cmd] = (await judge(row)).level;
    expect(got).toEqual(DEBATABLE);
  });
});

describe("hermes's own corpus", () => {
  it('catches every command at least at its level', async () => {
    const misses: string[] = [];
    for (const c of [...CAUGHT, ...TECHNIQUES]) {
      const v = await judgeCommand(c.command, ctx);
      if (RANK[v.level] < RANK[c.level]) misses.push(`${JSON.stringify(c.command)} → ${show(v)}, expected ${c.level}`);
    }
    expect(misses).toEqual([]);
  });

  it('lets every ordinary command through', async () => {
    const wrong: string[] = [];
    for (const command of [...SAFE, ...EVERYDAY]) {
      const v = await judgeCommand(command, ctx);
      if (v.level !== 'safe') wrong.push(`${JSON.stringify(command)} → ${show(v)}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('inputs meant to break the gate', () => {
  it('asks about what it cannot walk, and judges huge input in bounded time', async () => {
    const deep = `${'('.repeat(20_000)}rm -rf build${')'.repeat(20_000)}`;
    expect((await judgeCommand(deep, ctx)).level).not.toBe('safe');
    const long = `${'echo a; '.repeat(20_000)}rm -rf ~`;
    expect((await judgeCommand(long, ctx)).level).toBe('hardline');
    const code = `python3 -c "${'x = 1 + 1 '.repeat(20_000)}"`;
    expect((await judgeCommand(code, ctx)).level).toBe('safe');
    // Inputs that once made a regex backtrack for seconds to minutes (vitest's timeout catches a relapse).
    expect((await judgeCommand(`rm -rf ~/${'*'.repeat(40)}x`, ctx)).level).not.toBe('safe');
    expect((await judgeCommand(`rm -rf ~/${'*'.repeat(40)}`, ctx)).level).toBe('hardline');
    expect((await judgeCommand(`vim -c '${' '.repeat(20_000)}x' notes.txt`, ctx)).level).toBe('safe');
    expect((await judgeCommand(`curl 'http://${'{a,b}'.repeat(20)}.example/'`, ctx)).level).toBe('safe');
    const braces = await judgeCommand(`echo ${'{a,b}'.repeat(20)}`, ctx);
    expect(braces.findings.map((f) => [f.level, f.rule])).toEqual([['dangerous', 'shell.unreadable']]);
    expect(braces.findings[0]!.why).toContain('more than 256 words');
    expect((await judgeCommand(`python3 -c "import os; os.system('ls')${' '.repeat(20_000)}, 'x'"`, ctx)).level).toBe('dangerous');
    expect((await judgeCommand(`sed -n '1${' '.repeat(20_000)}p' f`, ctx)).level).toBe('safe');
    expect((await judgeCommand(`ps -${'o'.repeat(20_000)} | xargs kill`, ctx)).level).toBe('safe');
  });

  it('never judges an empty or blank command as anything but safe, and a NUL as unusual', async () => {
    expect((await judgeCommand('', ctx)).level).toBe('safe');
    expect((await judgeCommand('   \n  ', ctx)).level).toBe('safe');
    expect((await judgeCommand('ls\0rm -rf ~', ctx)).level).not.toBe('safe');
  });
});
