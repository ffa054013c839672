/**
 * Runs a CommonJS bundle through `vm.Script` with V8's code cache, so a start deserializes the code
 * compiled by an earlier start instead of parsing and compiling ~2 MB again. Node 20 has no
 * `module.enableCompileCache` (22.1+), and its ESM loader takes no cached data: the shipped bundles
 * are CommonJS for this (scripts/build.mjs), each started by a small launcher (`dist/main.cjs`, CommonJS
 * too: Node starts an ES module entry ~10 ms later).
 *
 * The cache lives outside the install (which may be read-only): `$HERMES_CODE_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/hermes/code-cache` (`~/.cache/hermes/code-cache`). One file per install, role (a
 * backend answering approvals only compiles other code than one serving sessions), bundle build (its
 * content hash, size and mtime), Node version and architecture; a new build's replaces the old one's,
 * and a cache no start has used for 30 days is removed when another is written.
 * A missing, stale or rejected cache only costs the compile it would have saved: the bundle runs
 * without it and a new cache is written once the start is over. The bundle's vendored packages (files
 * of their own beside it, scripts/build.mjs) go through the same cache, each when first imported.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { DYNAMIC_IMPORT } from './dynamicImports.mjs';
import { publishCodeCacheStatus, type CodeCacheStatus } from './status.ts';

export type { CodeCacheStatus } from './status.ts';

export interface RunCachedOptions {
  /** Content hash of the bundle, computed by the build (cheap staleness check beside size and mtime). */
  buildHash: string;
  /** Which kind of start this is (see the module comment); becomes part of the file name. */
  role: string;
  /** False for a start that must create nothing (no directory, no file): the bundle runs without a cache. */
  cache?: boolean;
  /** Node's import(), as the launcher (an ES module, not from the cache) calls it. */
  dynamicImport: (specifier: string, options?: ImportCallOptions) => Promise<unknown>;
  /** Milliseconds after the start at which a missing or rejected cache is written (and at exit, if sooner). */
  saveAfterMs?: number;
  env?: NodeJS.ProcessEnv;
  /**
   * CommonJS files the bundle import()s by these specifiers (relative to it), each with its content hash:
   * its vendored packages (scripts/build.mjs), compiled through the cache too, once, when first imported.
   */
  modules?: Record<string, string>;
}

/**
 * Node wraps CommonJS modules the same way: the bundle sees the usual five module variables, and the
 * function its import() calls were renamed to (dynamicImports.mjs).
 */
const WRAPPER = [`(function (exports, require, module, __filename, __dirname, ${DYNAMIC_IMPORT}) { `, '\n});'] as const;

/** Where caches go unless HERMES_CODE_CACHE_DIR says: the user's cache directory (XDG), not the install. */
function defaultCacheDirectory(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CACHE_HOME?.trim();
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'hermes', 'code-cache');
  try {
    return path.join(os.homedir(), '.cache', 'hermes', 'code-cache');
  } catch {
    return path.join(os.tmpdir(), `hermes-code-cache-${process.getuid?.() ?? 'user'}`);
  }
}

/**
 * The cache directory, created private to this user. A directory another user could write is not
 * used: a planted cache would be code run as us.
 */
export function cacheDirectory(env: NodeJS.ProcessEnv = process.env): { dir?: string; problem?: string } {
  const dir = env.HERMES_CODE_CACHE_DIR?.trim() || defaultCacheDirectory(env);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(dir);
    if (!stat.isDirectory()) return { problem: `${dir} is not a directory` };
    if (process.getuid && stat.uid !== process.getuid()) return { problem: `${dir} belongs to another user` };
    if (process.platform !== 'win32' && (stat.mode & 0o022) !== 0) return { problem: `${dir} is writable by other users (chmod go-w to use it)` };
    fs.accessSync(dir, fs.constants.W_OK);
    return { dir };
  } catch (error) {
    return { problem: `cannot use ${dir}: ${(error as Error).message}` };
  }
}

const shortHash = (parts: unknown[]) => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 16);

/**
 * The cache file for this bundle build, Node and role: `<bundle>-<role>-<install>-<build>.v8cache`.
 * The install part (the bundle's path) lets a new build's cache replace the old one's.
 */
export function cacheFileName(bundle: string, stat: fs.Stats, options: Pick<RunCachedOptions, 'buildHash' | 'role'>): string {
  return `${installPrefix(bundle, options.role)}${shortHash([options.buildHash, stat.size, stat.mtimeMs, process.version, process.arch])}.v8cache`;
}

function installPrefix(bundle: string, role: string): string {
  return `${path.basename(bundle).replace(/\.[^.]+$/, '')}-${role.replace(/[^a-z0-9-]/gi, '_')}-${shortHash([path.resolve(bundle)])}-`;
}

/** Removes the caches of this install's earlier builds (and Node versions): one file per install and role stays. */
function removeOlderCaches(file: string, prefix: string): void {
  const dir = path.dirname(file);
  for (const name of fs.readdirSync(dir))
    if (name.startsWith(prefix) && name !== path.basename(file) && name.endsWith('.v8cache')) fs.rmSync(path.join(dir, name), { force: true });
}

/**
 * How long a cache may go unused before a new cache's write removes it. A start that uses a cache
 * renews its modification time (`renewLater`), so this is the time since an install last ran.
 */
export const UNUSED_CACHE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * A cache file as cacheFileName names it, or writeAtomically's temporary one: only these are removed
 * ($HERMES_CODE_CACHE_DIR may name a directory that holds other files too).
 */
const OUR_FILE = /-[0-9a-f]{16}-[0-9a-f]{16}\.v8cache(?:\.\d+\.tmp)?$/;

/**
 * Removes the caches no start has used for UNUSED_CACHE_MS, and temporary files a failed write left.
 * removeOlderCaches keeps one file per install path, and a path that no longer runs never replaces
 * its own: an older version run through `npx` (a new path per version) or a deleted checkout.
 */
function removeUnusedCaches(dir: string, now = Date.now()): void {
  for (const name of fs.readdirSync(dir)) {
    if (!OUR_FILE.test(name)) continue;
    const file = path.join(dir, name);
    try {
      if (now - fs.statSync(file).mtimeMs > UNUSED_CACHE_MS) fs.rmSync(file, { force: true });
    } catch {
      // removed by another start meanwhile
    }
  }
}

/** Marks a cache as used by this start, once the start is over: its modification time is now. */
function renewLater(file: string, afterMs: number): void {
  setTimeout(() => {
    try {
      const now = new Date();
      fs.utimesSync(file, now, now);
    } catch {
      // gone or read-only: it is only not renewed
    }
  }, afterMs).unref();
}

/** Writes `data` to `file` through a temporary file and a rename, so a reader never sees half a cache. */
function writeAtomically(file: string, data: Buffer): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, data, { mode: 0o600 });
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

function readCache(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Compiles and runs `bundle` (a CommonJS file) with the code cache; returns what happened to the cache. */
export function runCachedBundle(bundle: string, options: RunCachedOptions): CodeCacheStatus {
  const { script, status } = compileCached(bundle, options);
  publishCodeCacheStatus(status);
  runCommonJs(script, bundle, importFor(bundle, options, status));
  return status;
}

/**
 * `file`'s text inside the module wrapper, as one string made once: the file is read into a buffer
 * between the wrapper's two halves and decoded from there. Read, then wrapped, it was copied twice
 * more (the hashbang's replacement and the flattening of the joined string at compile), ~7 ms for the
 * backend's 1.9 MB on a 2-core machine. An ASCII file (what the build makes) is decoded as Latin-1: the
 * same text without UTF-8 decoding (~10 ms for 2.4 MB). A hashbang is valid only at the start of a
 * file, not inside the wrapper: it becomes a comment of the same length.
 */
function wrappedSource(file: string): { source: string; stat: fs.Stats } {
  const fd = fs.openSync(file, 'r');
  try {
    const stat = fs.fstatSync(fd);
    const [head, tail] = WRAPPER;
    const bytes = Buffer.allocUnsafe(head.length + stat.size + tail.length);
    bytes.write(head, 0, 'latin1');
    for (let read = 0; read < stat.size; ) {
      const got = fs.readSync(fd, bytes, head.length + read, stat.size - read, read);
      if (got === 0) throw new Error(`${file} ended after ${read} of its ${stat.size} bytes (changed while read)`);
      read += got;
    }
    bytes.write(tail, head.length + stat.size, 'latin1');
    if (bytes[head.length] === 0x23 && bytes[head.length + 1] === 0x21) bytes.write('//', head.length, 'latin1');
    return { source: isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8'), stat };
  } finally {
    fs.closeSync(fd);
  }
}

/** `file`'s script, compiled with its cache when there is a usable one; a new cache is scheduled otherwise. */
function compileCached(file: string, options: Omit<RunCachedOptions, 'dynamicImport' | 'modules'>): { script: vm.Script; status: CodeCacheStatus } {
  const { source, stat } = wrappedSource(file);
  const { dir, problem } = options.cache === false ? {} : cacheDirectory(options.env);
  const cacheFile = dir ? path.join(dir, cacheFileName(file, stat, options)) : undefined;
  let cachedData: Buffer | undefined;
  let status: CodeCacheStatus;
  try {
    cachedData = cacheFile ? readCache(cacheFile) : undefined;
    status = cacheFile ? { state: cachedData ? 'hit' : 'miss', file: cacheFile } : { state: 'off', problem };
  } catch (error) {
    status = { state: 'off', file: cacheFile, problem: `cannot read ${cacheFile}: ${(error as Error).message}` };
  }
  const script = new vm.Script(source, {
    filename: file,
    cachedData,
    // No importModuleDynamically: Node 20 loses it for functions taken from the cache; the bundle's
    // import() calls go to options.dynamicImport instead (dynamicImports.mjs).
  });
  if (cachedData && script.cachedDataRejected) status.state = 'rejected';
  const afterMs = options.saveAfterMs ?? 1_000;
  if (cacheFile && status.state === 'hit') renewLater(cacheFile, afterMs);
  else if (cacheFile) scheduleSave(script, cacheFile, installPrefix(file, options.role), status, afterMs);
  return { script, status };
}

/** Runs a compiled CommonJS file with the usual module variables and the import() it calls; gives its exports. */
function runCommonJs(script: vm.Script, file: string, dynamicImport: RunCachedOptions['dynamicImport']): unknown {
  const module = { exports: {} as unknown, filename: file, id: '.', loaded: false };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file), dynamicImport);
  module.loaded = true;
  return module.exports;
}

/**
 * The import() the bundle and its modules call: a specifier in `options.modules` is one of the bundle's
 * CommonJS files, compiled through the cache once and resolved with its exports (what it exports as
 * `default` stays `default`, as esbuild writes it); any other goes to Node. Each module's cache status is
 * added to the bundle's.
 */
function importFor(bundle: string, options: RunCachedOptions, status: CodeCacheStatus): RunCachedOptions['dynamicImport'] {
  const loaded = new Map<string, Promise<unknown>>();
  const dynamicImport = (specifier: string, importOptions?: ImportCallOptions): Promise<unknown> => {
    const buildHash = Object.hasOwn(options.modules ?? {}, specifier) ? options.modules![specifier]! : undefined;
    if (buildHash === undefined) return options.dynamicImport(specifier, importOptions);
    let module = loaded.get(specifier);
    if (!module) {
      module = Promise.resolve().then(() => {
        const file = path.resolve(path.dirname(bundle), specifier);
        const compiled = compileCached(file, { ...options, buildHash, role: 'module' });
        (status.modules ??= {})[specifier] = compiled.status;
        return runCommonJs(compiled.script, file, dynamicImport);
      });
      loaded.set(specifier, module);
    }
    return module;
  };
  return dynamicImport;
}

/**
 * The cache is made once the start is over (the functions a start compiles lazily are in it by then)
 * or at exit if that comes first; never twice. A failed write leaves the status saying why.
 */
function scheduleSave(script: vm.Script, file: string, prefix: string, status: CodeCacheStatus, afterMs: number): void {
  const save = () => {
    clearTimeout(timer);
    process.removeListener('exit', save);
    try {
      writeAtomically(file, script.createCachedData());
      status.saved = true;
      removeOlderCaches(file, prefix);
      removeUnusedCaches(path.dirname(file));
    } catch (error) {
      status.problem = `cannot write ${file}: ${(error as Error).message}`;
    }
  };
  const timer = setTimeout(save, afterMs);
  timer.unref();
  process.once('exit', save);
}
