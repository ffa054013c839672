/** The launcher's early backend: which starts spawn one, and its takeover by main.tsx (a real child process). */
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../cli/args.ts';
import { spawnBackend } from './backendSpawn.ts';
import { handOver, takeEarlyBackend, tuiBackendOptions } from './earlyBackend.ts';

/** A stand-in backend that lives until its stdin closes, as the real one does. */
const stayUntilStdinCloses = () => spawnBackend({ command: process.execPath, args: ['-e', 'process.stdin.resume(); process.stdin.on("end", () => process.exit(0))'] });

describe('the early backend', () => {
  it('is spawned only for a start that opens the TUI with a backend', () => {
    expect(tuiBackendOptions(parseCliArgs([]))).toEqual({ model: undefined, provider: undefined, baseUrl: undefined, demo: false });
    expect(tuiBackendOptions(parseCliArgs(['--model', 'gpt-4o', '--resume', 'abc']))).toMatchObject({ model: 'gpt-4o' });
    for (const argv of [['--help'], ['--version'], ['--demo'], ['sessions', 'list'], ['mcp', 'list'], ['doctor'], ['mycmd'], ['--resume', ' '], ['--resume', 'a', '--continue']]) {
      expect(tuiBackendOptions(parseCliArgs(argv)), argv.join(' ')).toBeNull();
    }
  });

  it('is taken over once when the options match; spawned for others, it is stopped', async () => {
    const kept = stayUntilStdinCloses();
    handOver({ model: 'm' }, kept);
    expect(takeEarlyBackend({ model: 'm' })).toBe(kept);
    expect(takeEarlyBackend({ model: 'm' })).toBeUndefined();
    kept.child.stdin.end();
    await kept.ended;

    const other = stayUntilStdinCloses();
    handOver({ model: 'm' }, other);
    expect(takeEarlyBackend({ model: 'other' })).toBeUndefined();
    expect(await other.ended).toMatchObject({ code: 0 });
  });
});
