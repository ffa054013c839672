/** Process checks for tests of processes that are not our children (no exit event to wait for). */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Whether `pid` (or, negative, a process group) still exists; a zombie (exited, not yet reaped) counts as
 * gone. agent-core's test utilities have the same check; the TUI may not import them.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (pid < 0) return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

/** Resolves once `pid` is gone; throws after `timeoutMs`. */
export async function waitUntilGone(pid: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} is still running`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The children of `pid` (zombies included), from /proc (Linux). */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // After the command (which may hold spaces): state, then the parent's pid.
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(name));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return children;
}
