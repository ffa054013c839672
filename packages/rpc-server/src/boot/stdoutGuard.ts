import { Writable } from 'node:stream';

/**
 * Stdout carries protocol frames and nothing else. Installed before anything else runs: any other
 * write to process.stdout (a stray console.log of ours or of a dependency) is diverted to stderr,
 * which the client keeps as a log. The protocol writes through `protocolStdout()` only.
 */
type WriteFn = typeof process.stdout.write;

let original: WriteFn | null = null;
let stream: Writable | null = null;

export function installStdoutGuard(divert: (chunk: string | Uint8Array) => void = defaultDivert): Writable {
  if (stream) return stream;
  original = process.stdout.write.bind(process.stdout) as WriteFn;
  const guarded = ((chunk: string | Uint8Array, encodingOrCb?: unknown, cb?: unknown) => {
    divert(chunk);
    const done = typeof encodingOrCb === 'function' ? encodingOrCb : cb;
    if (typeof done === 'function') queueMicrotask(() => (done as (e?: Error | null) => void)(null));
    return true;
  }) as WriteFn;
  process.stdout.write = guarded;
  const write = original;
  stream = new Writable({
    // One frame per write reaches the real stdout, in order; the callback waits for the flush.
    write(chunk: Buffer, _encoding, callback) {
      write(chunk, (error) => callback(error ?? null));
    },
  });
  process.stdout.on('error', (error) => stream?.destroy(error));
  return stream;
}

function defaultDivert(chunk: string | Uint8Array): void {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  process.stderr.write(`[stdout diverted] ${text.endsWith('\n') ? text : `${text}\n`}`);
}
