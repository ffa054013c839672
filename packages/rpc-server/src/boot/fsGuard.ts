/**
 * The `fs` paths to fd 1, diverted (see fdOneGuard.ts for why). A write to fd 1 — or to an fd that
 * was opened on an alias of it (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`), which gets a
 * `/dev/null` descriptor instead — hands its bytes to `divert` and reports them as written.
 */
import fs from 'node:fs';
import path from 'node:path';

export type Divert = (chunk: string | Uint8Array) => void;
type AnyFn = (...args: any[]) => any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Replaces `target[name]` (when it is a function) with `make(original)`. */
export function patch(target: object, name: string, make: (original: AnyFn) => AnyFn): void {
  const owner = target as Record<string, AnyFn>;
  const original = owner[name];
  if (typeof original !== 'function') return;
  owner[name] = make(original);
}

const STDOUT_ALIASES = /^\/(?:dev\/stdout|dev\/fd\/1|proc\/(?:self|thread-self|\d+)\/fd\/1)$/;

function isStdoutPath(file: unknown): boolean {
  let text = '';
  if (typeof file === 'string') text = file;
  else if (Buffer.isBuffer(file)) text = file.toString();
  else if (file instanceof URL && file.protocol === 'file:') text = decodeURIComponent(file.pathname);
  if (!text) return false;
  const resolved = path.resolve(text);
  if (!STDOUT_ALIASES.test(resolved)) return false;
  const pid = /^\/proc\/(\d+)\//.exec(resolved)?.[1];
  return pid === undefined || Number(pid) === process.pid;
}

/** The bytes a write call would write: a string, or the `[offset, offset + length)` part of a buffer. */
function bytesOf(data: unknown, args: unknown[] = []): Uint8Array | string {
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
const joined = (buffers: unknown) =>
  Buffer.concat((Array.isArray(buffers) ? buffers : []).map((b: ArrayBufferView) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
const lastCallback = (args: unknown[]) => (typeof args.at(-1) === 'function' ? (args.at(-1) as AnyFn) : null);

export function guardFs(divert: Divert): void {
  /** fd 1 and the descriptors opened on its aliases. */
  const diverted = new Set<number>([1]);
  const isDiverted = (fd: unknown) => typeof fd === 'number' && diverted.has(fd);
  const isStdout = (target: unknown) => isDiverted(target) || isStdoutPath(target);

  // fd-based writes: (fd, data, …) → bytes written.
  const writers: Array<[string, (data: unknown, rest: unknown[]) => Uint8Array | string, boolean]> = [
    ['writeSync', bytesOf, false],
    ['write', bytesOf, true],
    ['writevSync', joined, false],
    ['writev', joined, true],
  ];
  for (const [name, bytes, async] of writers) {
    patch(fs, name, (original) =>
      function write(this: unknown, fd: unknown, data: unknown, ...rest: unknown[]) {
        if (!isDiverted(fd)) return original.call(this, fd, data, ...rest);
        const chunk = bytes(data, rest);
        divert(chunk);
        if (!async) return sizeOf(chunk);
        const done = lastCallback(rest);
        if (done) process.nextTick(done, null, sizeOf(chunk), data);
      },
    );
  }
  // Whole-file writes by fd or by path.
  for (const name of ['writeFileSync', 'appendFileSync', 'writeFile', 'appendFile']) {
    patch(fs, name, (original) =>
      function file(this: unknown, target: unknown, data: unknown, ...rest: unknown[]) {
        if (!isStdout(target)) return original.call(this, target, data, ...rest);
        divert(bytesOf(data));
        const done = lastCallback(rest);
        if (done) process.nextTick(done, null);
      },
    );
  }
  for (const name of ['writeFile', 'appendFile']) {
    patch(fs.promises, name, (original) =>
      async function file(this: unknown, target: unknown, data: unknown, ...rest: unknown[]) {
        if (!isStdout(target)) return original.call(this, target, data, ...rest);
        divert(bytesOf(data));
      },
    );
  }
  // Opening an alias of fd 1: a /dev/null descriptor whose writes are diverted. (Reopening fd 1 or
  // fd 2 by path is no option: for the socket pairs Node uses as stdio pipes it fails with ENXIO.)
  patch(fs, 'openSync', (original) =>
    function openSync(this: unknown, file: unknown, ...rest: unknown[]) {
      if (!isStdoutPath(file)) return original.call(this, file, ...rest);
      const fd = original.call(this, '/dev/null', 'w') as number;
      diverted.add(fd);
      return fd;
    },
  );
  patch(fs, 'open', (original) =>
    function open(this: unknown, file: unknown, ...rest: unknown[]) {
      if (!isStdoutPath(file)) return original.call(this, file, ...rest);
      const done = lastCallback(rest);
      original.call(this, '/dev/null', 'w', (error: Error | null, fd: number) => {
        if (!error) diverted.add(fd);
        done?.(error, fd);
      });
    },
  );
  patch(fs.promises, 'open', (original) =>
    async function open(this: unknown, file: unknown, ...rest: unknown[]) {
      if (!isStdoutPath(file)) return original.call(this, file, ...rest);
      const handle = (await original.call(this, '/dev/null', 'w')) as fs.promises.FileHandle;
      divertHandle(handle, divert);
      return handle;
    },
  );
  // Closing fd 1 would let the next open() take its number and write into the wire: refused.
  patch(fs, 'closeSync', (original) =>
    function closeSync(this: unknown, fd: unknown, ...rest: unknown[]) {
      if (fd === 1) return;
      if (typeof fd === 'number') diverted.delete(fd);
      return original.call(this, fd, ...rest);
    },
  );
  patch(fs, 'close', (original) =>
    function close(this: unknown, fd: unknown, ...rest: unknown[]) {
      if (fd !== 1) {
        if (typeof fd === 'number') diverted.delete(fd);
        return original.call(this, fd, ...rest);
      }
      const done = lastCallback(rest);
      if (done) process.nextTick(done, null);
    },
  );
}

/** `process.binding('fs')` (deprecated, still there): its raw write calls on fd 1 are diverted too. */
export function guardFsBinding(divert: Divert): void {
  const internals = process as unknown as { binding?: (name: string) => Record<string, unknown> };
  const binding = internals.binding;
  if (typeof binding !== 'function') return;
  let guarded: Record<string, unknown> | null = null;
  const writes: Record<string, (args: unknown[]) => Uint8Array | string> = {
    writeString: ([data]) => bytesOf(data),
    writeBuffer: ([data, offset, length]) => bytesOf(data, [offset, length]),
    writeBuffers: ([buffers]) => joined(buffers),
  };
  internals.binding = function (this: unknown, name: string) {
    const real = binding.call(process, name);
    if (name !== 'fs') return real;
    guarded ??= new Proxy(real, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        const bytes = typeof key === 'string' ? writes[key] : undefined;
        if (typeof value !== 'function') return value;
        if (!bytes) return (value as AnyFn).bind(target);
        return (fd: unknown, ...rest: unknown[]) => {
          if (fd !== 1) return (value as AnyFn).call(target, fd, ...rest);
          const chunk = bytes(rest);
          divert(chunk);
          return sizeOf(chunk);
        };
      },
    });
    return guarded;
  };
}

/** A FileHandle on /dev/null standing in for an alias of fd 1: its writes are diverted. */
function divertHandle(handle: fs.promises.FileHandle, divert: Divert): void {
  const target = handle as unknown as Record<string, AnyFn>;
  target.write = async (data: unknown, ...rest: unknown[]) => {
    const chunk = bytesOf(data, rest);
    divert(chunk);
    return { bytesWritten: sizeOf(chunk), buffer: data };
  };
  target.writev = async (buffers: unknown) => {
    const chunk = joined(buffers);
    divert(chunk);
    return { bytesWritten: chunk.length, buffers };
  };
  target.writeFile = async (data: unknown) => void divert(bytesOf(data));
  target.appendFile = target.writeFile;
}
