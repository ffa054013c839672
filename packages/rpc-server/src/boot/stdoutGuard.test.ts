import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const writer = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'testing', 'fdOneWriter.ts');

describe('the stdout guard', () => {
  it('lets only protocol frames reach fd 1: fs, fd 1 aliases, process.stdout, sockets and tty streams on fd 1 and inheriting children go to stderr', async () => {
    const run = await execa(process.execPath, ['--conditions=source', '--import', 'tsx', writer], { reject: false, stdin: 'ignore', cwd: path.dirname(writer) });
    expect(run.stderr).not.toMatch(/Error|at .*fdOneWriter/);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe('{"frame":1}\n{"frame":2}');
    const attempts = [
      'writeSync', 'named-import-writeSync', 'write', 'writevSync', 'writeFileSync', 'appendFileSync-path', 'openSync-alias',
      'filehandle', 'promises-writeFile', 'createWriteStream-path', 'createWriteStream-fd', 'process-binding', 'console-log', 'process-stdout-write',
      'process-stdout-end', 'spawnSync', 'execSync', 'execFileSync', 'spawn-inherit', 'spawn-process-stdout', 'spawn-fd-1',
      'fork-default-stdio', 'execa-stdout-inherit', 'execa-stdio-inherit', 'net-socket-fd', 'net-socket-named-import', 'tty-writestream',
    ];
    // Diverted, never lost.
    const diverted = run.stderr.split('\n').map((line) => line.replace(/^\[stdout diverted\] /, ''));
    for (const attempt of attempts) expect(diverted).toContain(`leak-${attempt}`);
  });
});
