import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `$HERMES_HOME`, default `~/.hermes`: config.yaml, .env, state.db, logs/, plugins/, skills/. */
export function hermesHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.HERMES_HOME?.trim();
  return fromEnv ? path.resolve(fromEnv) : path.join(os.homedir(), '.hermes');
}

/**
 * The homes the approval gate judges against: `HOME` from `env` (the process environment merged over
 * `$HERMES_HOME/.env`), else the OS's idea of home. One place, so `approvals.check` and sessions agree.
 */
export function judgeHomes(home: string, env: NodeJS.ProcessEnv): { home: string; hermesHome: string } {
  return { home: env.HOME ?? os.homedir(), hermesHome: home };
}

/** A path as it can be pasted into a shell. */
export function shellPath(file: string): string {
  return /^[\w./~+@%:-]+$/.test(file) ? file : `'${file.replace(/'/g, `'\\''`)}'`;
}

/**
 * `mkdir -p`, one folder at a time. Node's recursive mkdir never returns where a parent exists but
 * refuses new entries with ENOENT (a HERMES_HOME under /proc): it retries forever, hanging hermes.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let at = path.resolve(dir); !fs.existsSync(at); at = path.dirname(at)) {
    missing.unshift(at);
    if (path.dirname(at) === at) break;
  }
  for (const folder of missing) {
    try {
      fs.mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  // Every part exists now, so this only checks that `dir` is a folder (EEXIST when it is a file).
  fs.mkdirSync(dir, { recursive: true });
}

/** The nearest existing ancestor of `target` when it is a file, not a folder (`logs` written as a file). */
function fileInTheWay(target: string): string | null {
  for (let at = path.dirname(target); ; at = path.dirname(at)) {
    if (fs.existsSync(at)) return fs.statSync(at).isDirectory() ? null : at;
    if (path.dirname(at) === at) return null;
  }
}

/** The folder whose permissions decide whether `target` can be created: its nearest existing ancestor. */
export function deciding(target: string): string {
  let dir = path.dirname(target);
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/** The `code` an fs, child_process or better-sqlite3 error carries (`ENOENT`, `SQLITE_FULL`), or ''. */
export function errorCode(error: unknown): string {
  return String((error as { code?: unknown })?.code ?? '');
}

/**
 * Why hermes cannot write `target` (a file under $HERMES_HOME), with the fix, for a failure from
 * fs or SQLite: permission denied (chmod), a read-only file system, a full disk (free space).
 */
export function describeWriteFailure(target: string, error: unknown): string {
  const code = errorCode(error);
  const dir = deciding(target);
  if (code === 'EACCES' || code === 'EPERM') {
    const file = fs.existsSync(target) ? ` && chmod u+rw ${shellPath(target)}` : '';
    return `Permission denied: hermes cannot write ${target}. Fix: chmod u+rwx ${shellPath(dir)}${file} (as the owner), or set HERMES_HOME to a folder you can write.`;
  }
  const blocker = code === 'EEXIST' || code === 'ENOTDIR' ? fileInTheWay(target) : null;
  if (blocker) {
    const home = hermesHome();
    // A file at HERMES_HOME or above it is not hermes's to move (HERMES_HOME=/etc/passwd): point elsewhere.
    if (blocker === home || home.startsWith(`${blocker}${path.sep}`)) {
      return `hermes cannot write ${target}: ${blocker} is a file, and HERMES_HOME (${home}) must be a folder. Fix: set HERMES_HOME to a folder (the default is ~/.hermes).`;
    }
    return `hermes cannot write ${target}: ${blocker} is a file where a folder should be. Fix: move it aside (mv ${shellPath(blocker)} ${shellPath(`${blocker}.file`)}); hermes then creates the folder.`;
  }
  if (code === 'EROFS') return `hermes cannot write ${target}: ${dir} is on a read-only file system. Fix: set HERMES_HOME to a folder on a writable disk.`;
  if (code === 'ENOSPC' || code === 'SQLITE_FULL') return `hermes cannot write ${target}: the disk is full. Fix: free some space on it (df -h ${shellPath(dir)}).`;
  return `hermes cannot write ${target}: ${(error as Error)?.message ?? String(error)}.`;
}
