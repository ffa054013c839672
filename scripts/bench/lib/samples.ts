/** Order statistics and interleaved A/B sampling shared by the benchmarks. */
import { readdirSync, readFileSync } from 'node:fs';

/** The value at quantile `q` (0–1) of an already sorted list. */
export const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export const median = (xs: number[]): number => quantile([...xs].sort((a, b) => a - b), 0.5);

export const p95 = (xs: number[]): number => quantile([...xs].sort((a, b) => a - b), 0.95);

/**
 * Runs each measurement once per round, in turn, for `runs` rounds, so ours and its floor share the
 * machine's moods (these machines are shared and noisy). Returns each measurement's samples, keyed as given.
 */
export async function interleaved<K extends string>(runs: number, measures: Record<K, () => Promise<number>>): Promise<Record<K, number[]>> {
  const keys = Object.keys(measures) as K[];
  const out = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < runs; round += 1) {
    for (const key of keys) out[key].push(await measures[key]());
  }
  return out;
}

/** Resident set size of a live process, from /proc (Linux), in MB. */
export function rssMb(pid: number): number {
  const kb = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1];
  if (!kb) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kb) / 1024;
}

/**
 * CPU time a live process has used so far (user + system, all its threads, not its children), from
 * /proc (Linux), in ms. Counted in clock ticks of 10 ms (USER_HZ), so take it over many operations.
 * Unlike a wall-clock time it does not grow when other work loads the machine.
 */
export function cpuMs(pid: number): number {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ');
  const ticks = Number(fields?.[11]) + Number(fields?.[12]);
  if (!Number.isFinite(ticks)) throw new Error(`no CPU times for pid ${pid}`);
  return ticks * 10;
}

/** The CPU a process last ran on (Linux: /proc/<pid>/stat's 39th field), or undefined where that is not known. */
export function lastCpu(pid: number | 'self'): number | undefined {
  try {
    const cpu = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[36]);
    return Number.isInteger(cpu) ? cpu : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CPU time of a live process and its live descendants (a TUI and its backend), in ms; see cpuMs.
 * `depth` 1 counts the children but not theirs (a backend's, but not the MCP servers it started).
 */
export function cpuMsWithChildren(pid: number, depth = Infinity): number {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return cpuMs(pid) + (depth > 0 ? children.reduce((sum, child) => sum + cpuMsWithChildren(child, depth - 1), 0) : 0);
}
