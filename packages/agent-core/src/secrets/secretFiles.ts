/**
 * Whether a path the model gave names `$HERMES_HOME/.env`, however it is spelled: relative, with `..`,
 * in another case (case-insensitive file systems), through a symbolic link or a hard link.
 */
import fs from 'node:fs';
import path from 'node:path';

function homeDotenvPath(hermesHome: string): string {
  return path.join(hermesHome, '.env');
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    // Not there (yet): resolve the nearest existing parent, so `link-to-home/.env` still counts.
    const parent = path.dirname(p);
    return parent === p ? p : path.join(realOrSelf(parent), path.basename(p));
  }
}

/** `file`: absolute, or relative to `cwd`. */
export function isHomeDotenv(file: string, hermesHome: string, cwd = process.cwd()): boolean {
  const target = path.resolve(cwd, file);
  const dotenv = homeDotenvPath(hermesHome);
  const same = (a: string, b: string) => a === b || a.toLowerCase() === b.toLowerCase();
  if (same(target, dotenv) || same(realOrSelf(target), realOrSelf(dotenv))) return true;
  try {
    const a = fs.statSync(target);
    const b = fs.statSync(dotenv);
    return a.dev === b.dev && a.ino === b.ino;
  } catch {
    return false;
  }
}

/** Whether `file` (absolute, or relative to `cwd`) is a process's environment: `/proc/<pid>/environ`, also through links. */
export function isProcessEnvironment(file: string, cwd = process.cwd()): boolean {
  const target = path.resolve(cwd, file);
  const environ = /^\/proc\/[^/]+\/(?:task\/[^/]+\/)?environ$/i;
  return environ.test(target) || environ.test(realOrSelf(target));
}
