/**
 * Every JavaScript path to file descriptor 1 other than the protocol writer's, diverted. Node has no
 * dup2, so fd 1 itself cannot be moved aside; instead the ways JS code reaches it are patched:
 * `fs.write*` / `fs.writeFile*` / `fs.appendFile*` on fd 1, opening an alias of it (`/dev/stdout`,
 * `/dev/fd/1`, `/proc/self/fd/1`) and child processes that would inherit it (`stdio: 'inherit'`, fd 1,
 * `process.stdout`, `fork`'s default), `process.binding('fs')` writes, and sockets or terminal
 * streams constructed on fd 1 (`new net.Socket({ fd: 1 })`, `new tty.WriteStream(1)`). Their bytes go
 * to stderr, which the client keeps as a log.
 *
 * Why not run the protocol on an extra pipe and hand fd 1 to the log: the wire is stdin/stdout by
 * contract (PROTOCOL.md), and clients other than our TUI speak it. Not covered (no JS path through the
 * patched modules): native addons, raw handles from `process.binding('pipe_wrap'|'tty_wrap')`, and
 * `fs` writes to fd 1 inside worker threads (a worker's `process.stdout` and `console` are covered:
 * Node pipes them through the parent's `process.stdout`).
 */
import childProcess, { ChildProcess } from 'node:child_process';
import { guardFs, guardFsBinding, patch, type Divert } from './fsGuard.ts';
import { guardSockets } from './socketGuard.ts';

export type { Divert };

/** A child's stdio with every way to our fd 1 pointed at fd 2 instead. */
function divertChildStdio(stdio: unknown): unknown {
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
  guardFs(divert);
  guardFsBinding(divert);
  guardSockets(divert);
  patchChildProcesses();
}
