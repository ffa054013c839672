import { syncBuiltinESMExports } from 'node:module';
import { Writable } from 'node:stream';
import type { FrameSink } from '../transport/ndjsonWriter.ts';
import { guardFdOne, type Divert } from './fdOneGuard.ts';

/**
 * Stdout carries protocol frames and nothing else. Installed before anything else runs:
 * - `process.stdout` becomes a stand-in whose every write (`write`, `_write`, `end`, `console.log`,
 *   a stream piped into it) goes to stderr, which the client keeps as a log; its `fd` is 2, so code
 *   that writes to `process.stdout.fd` or passes it to a child lands on stderr too;
 * - the other JavaScript paths to fd 1 (fs, child processes) are diverted (fdOneGuard.ts);
 * - the real stdout stream is kept here, private: the protocol writes through the returned sink only,
 *   which calls the stream's own `write` (the instance's is the divert), with nothing in between.
 */
let sink: FrameSink | null = null;

export function installStdoutGuard(divert: Divert = defaultDivert): FrameSink {
  if (sink) return sink;
  const real = process.stdout;
  const realWrite = real.write.bind(real) as typeof real.write;
  const divertWrite = ((chunk: string | Uint8Array, encodingOrCb?: unknown, cb?: unknown) => {
    divert(chunk);
    const done = typeof encodingOrCb === 'function' ? encodingOrCb : cb;
    if (typeof done === 'function') queueMicrotask(() => (done as (e?: Error | null) => void)(null));
    return true;
  }) as typeof real.write;
  // Code that took hold of the real stream before this ran (a preloaded module) is diverted too.
  real.write = divertWrite;
  const standIn = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      divert(chunk);
      callback();
    },
  });
  Object.assign(standIn, { fd: 2, isTTY: false, columns: undefined, rows: undefined, write: divertWrite });
  Object.defineProperty(process, 'stdout', { configurable: true, enumerable: true, get: () => standIn });
  guardFdOne(divert);
  // ES modules that imported `writeSync`, `spawn`, … by name see the patched functions too.
  syncBuiltinESMExports();
  sink = {
    write: (chunk, callback) => realWrite(chunk, callback),
    end: (done) => real.end(done),
    on(event: string, listener: (...args: never[]) => void) {
      real.on(event, listener as () => void);
      return this;
    },
    get destroyed() {
      return real.destroyed;
    },
    get writableEnded() {
      return real.writableEnded;
    },
  };
  return sink;
}

function defaultDivert(chunk: string | Uint8Array): void {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  process.stderr.write(`[stdout diverted] ${text.endsWith('\n') ? text : `${text}\n`}`);
}
