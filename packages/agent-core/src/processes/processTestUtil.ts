import fs from 'node:fs';

/**
 * Whether `pid` is a live process, or for a negative `pid` whether process group `-pid` has a live
 * member. A zombie (exited, not yet reaped) counts as gone: an orphan is reparented to PID 1, and in
 * some containers PID 1 reaps late, so a killed group can keep zombie members for a long while.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (pid < 0) return groupHasLiveMember(-pid);
  const fields = statFields(pid);
  return fields === null || fields.state !== 'Z';
}

/** State and process group from /proc/<pid>/stat (after the command name, which may hold blanks). */
function statFields(pid: number | string): { state: string; pgrp: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = '', , pgrp = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, pgrp: Number(pgrp) };
  } catch {
    return null;
  }
}

function groupHasLiveMember(pgid: number): boolean {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    // No /proc: kill(-pgid, 0) succeeded, so someone in the group exists.
    return true;
  }
  return entries.some((pid) => {
    const fields = statFields(pid);
    return fields !== null && fields.pgrp === pgid && fields.state !== 'Z';
  });
}
