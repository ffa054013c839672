/**
 * Every JavaScript path to file descriptor 1 other than the protocol writer's, diverted. Node has no
 * dup2, so fd 1 itself cannot be moved aside; instead the ways JS code reaches it are patched:
 * `fs.write*` / `fs.writeFile*` / `fs.appendFile*` on fd 1, opening an alias of it (`/dev/stdout`,
 * `/dev/fd/1`, `/proc/self/fd/1`) and child processes that would inherit it (`stdio: 'inherit'`, fd 1,
 * `process.stdout`, `fork`'s default). Their bytes go to stderr, which the client keeps as a log.
 *
 * Why not run the protocol on an extra pipe and hand fd 1 to the log: the wire is stdin/stdout by
 * contract (PROTOCOL.md), and clients other than our TUI speak it. Not covered (no JS path through the
 * patched modules): native addons and worker threads writing to fd 1 themselves.
 */
import childProcess, { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type Divert = (chunk: string | Uint8Array) => void;

const STDOUT_ALIASES = /^\/(?:dev\/stdout|dev\/fd\/1|proc\/(?:self|thread-self|\d+)\/fd\/1)$/;

function isStdoutPath(file: unknown): boolean {
  if (typeof file !== 'string' && !(file instanceof URL) && !Buffer.isBuffer(file)) return false;
  const text = file instanceof URL ? (file.protocol === 'file:' ? decodeURIComponent(file.pathname) : '') : file.toString();
  if (!text) return false;
  const resolved = path.resolve(text);
  if (!STDOUT_ALIASES.test(resolved)) return false;
  const pid = /^\/proc\/(\d+)\//.exec(resolved)?.[1];
  return pid === undefined || Number(pid) === process.pid;
}

/** fd 1, or a path that names it. */
const isStdout = (target: unknown) => target === 1 || isStdoutPath(target);

type AnyFn = (...args: any[]) => any; // eslint-disable-line @typescript-eslint/no-explicit-any

function bytesOf(data: unknown, args: unknown[]): Uint8Array | string {
  if (typeof data === 'string') return data;
  if (ArrayBuffer.isView(data)) {
    const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const offset = typeof args[0] === 'number' ? args[0] : 0;
    const length = typeof args[1] === 'number' ? args[1] : view.length - offset;
    return view.subarray(offset, offset + length);
  }
  return String(data);
}

const sizeOf = (chunk: Uint8Array | string) => (typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length);

function patch(target: object, name: string, make: (original: AnyFn) => AnyFn): void {
  const owner = target as Record<string, AnyFn>;
  const original = owner[name];
  if (typeof original !== 'function') return;
  owner[name] = make(original);
}

function patchFs(divert: Divert): void {
  const lastCallback = (args: unknown[]) => (typeof args.at(-1) === 'function' ? (args.at(-1) as AnyFn) : null);
  patch(fs, 'writeSync', (original) =>
    function writeSync(this: unknown, fd: unknown, data: unknown, ...rest: unknown[]) {
      if (fd !== 1) return original.call(this, fd, data, ...rest);
      const chunk = bytesOf(data, rest);
      divert(chunk);
      return sizeOf(chunk);
    },
  );
  patch(fs, 'write', (original) =>
    function write(this: unknown, fd: unknown, data: unknown, ...rest: unknown[]) {
      if (fd !== 1) return original.call(this, fd, data, ...rest);
      const chunk = bytesOf(data, rest);
      divert(chunk);
      const done = lastCallback(rest);
      if (done) process.nextTick(done, null, sizeOf(chunk), data);
    },
  );
  const joined = (buffers: unknown) => Buffer.concat((Array.isArray(buffers) ? buffers : []).map((b: ArrayBufferView) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
  patch(fs, 'writevSync', (original) =>
    function writevSync(this: unknown, fd: unknown, buffers: unknown, ...rest: unknown[]) {
      if (fd !== 1) return original.call(this, fd, buffers, ...rest);
      const chunk = joined(buffers);
      divert(chunk);
      return chunk.length;
    },
  );
  patch(fs, 'writev', (original) =>
    function writev(this: unknown, fd: unknown, buffers: unknown, ...rest: unknown[]) {
      if (fd !== 1) return original.call(this, fd, buffers, ...rest);
      const chunk = joined(buffers);
      divert(chunk);
      const done = lastCallback(rest);
      if (done) process.nextTick(done, null, chunk.length, buffers);
    },
  );
  for (const name of ['writeFileSync', 'appendFileSync']) {
    patch(fs, name, (original) =>
      function fileSync(this: unknown, file: unknown, data: unknown, ...rest: unknown[]) {
        if (!isStdout(file)) return original.call(this, file, data, ...rest);
        divert(bytesOf(data, []));
      },
    );
  }
  for (const name of ['writeFile', 'appendFile']) {
    patch(fs, name, (original) =>
      function file(this: unknown, target: unknown, data: unknown, ...rest: unknown[]) {
        if (!isStdout(target)) return original.call(this, target, data, ...rest);
        divert(bytesOf(data, []));
        const done = lastCallback(rest);
        if (done) process.nextTick(done, null);
      },
    );
    patch(fs.promises, name, (original) =>
      async function file(this: unknown, target: unknown, data: unknown, ...rest: unknown[]) {
        if (!isStdoutPath(target)) return original.call(this, target, data, ...rest);
        divert(bytesOf(data, []));
      },
    );
  }
  // Opening an alias of fd 1 yields stderr instead (appending: never truncate a redirected log).
  const toStderr = (file: unknown, flags: unknown) => (isStdoutPath(file) ? ['/dev/stderr', typeof flags === 'number' ? fs.constants.O_WRONLY | fs.constants.O_APPEND : 'a'] : [file, flags]);
  for (const name of ['open', 'openSync']) {
    patch(fs, name, (original) =>
      function open(this: unknown, file: unknown, flags: unknown, ...rest: unknown[]) {
        return original.call(this, ...toStderr(file, flags), ...rest);
      },
    );
  }
  patch(fs.promises, 'open', (original) =>
    function open(this: unknown, file: unknown, flags: unknown, ...rest: unknown[]) {
      return original.call(this, ...toStderr(file, flags), ...rest);
    },
  );
  // Closing fd 1 would let the next open() take its number and write into the wire.
  patch(fs, 'closeSync', (original) =>
    function closeSync(this: unknown, fd: unknown, ...rest: unknown[]) {
      if (fd !== 1) return original.call(this, fd, ...rest);
    },
  );
  patch(fs, 'close', (original) =>
    function close(this: unknown, fd: unknown, ...rest: unknown[]) {
      if (fd !== 1) return original.call(this, fd, ...rest);
      const done = lastCallback(rest);
      if (done) process.nextTick(done, null);
    },
  );
}

/** A child's stdio with every way to our fd 1 pointed at fd 2 instead. */
export function divertChildStdio(stdio: unknown): unknown {
  if (stdio === 'inherit') return ['inherit', 2, 'inherit'];
  if (!Array.isArray(stdio)) return stdio;
  return stdio.map((entry: unknown, index) => {
    if (entry === 1 || (index === 1 && entry === 'inherit')) return 2;
    if (entry && typeof entry === 'object' && (entry as { fd?: unknown }).fd === 1 && !(entry as { _handle?: unknown })._handle) return 2;
    return entry;
  });
}

function optionsIn(args: unknown[]): Record<string, unknown> | null {
  for (let i = args.length - 1; i >= 0; i -= 1) {
    const value = args[i];
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  }
  return null;
}

function patchChildProcesses(): void {
  // spawn, exec, execFile and fork (and execa, which calls spawn) all end in ChildProcess#spawn.
  patch(ChildProcess.prototype, 'spawn', (original) =>
    function spawn(this: unknown, options: Record<string, unknown> | undefined, ...rest: unknown[]) {
      const diverted = options && 'stdio' in options ? { ...options, stdio: divertChildStdio(options.stdio) } : options;
      return original.call(this, diverted, ...rest);
    },
  );
  // The synchronous family goes through a binding directly; each entry point is patched.
  for (const name of ['spawnSync', 'execSync', 'execFileSync']) {
    patch(childProcess, name, (original) =>
      function sync(this: unknown, ...args: unknown[]) {
        const options = optionsIn(args.slice(1));
        if (options && 'stdio' in options) {
          const index = args.indexOf(options);
          args[index] = { ...options, stdio: divertChildStdio(options.stdio) };
        }
        return original.apply(this, args);
      },
    );
  }
}

/** Installs the fs and child_process diversions (call `syncBuiltinESMExports` afterwards). */
export function guardFdOne(divert: Divert): void {
  patchFs(divert);
  patchChildProcesses();
}
