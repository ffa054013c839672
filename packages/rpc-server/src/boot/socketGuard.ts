/**
 * Streams constructed on fd 1, diverted: `new net.Socket({ fd: 1 })` (a pipe or a terminal as a
 * socket) and `new tty.WriteStream(1)` open their own handle on the descriptor, past `process.stdout`
 * and `fs` — and destroying one would close the protocol's descriptor. For fd 1 the wrapped
 * constructors return a socket with no descriptor at all whose writes go to `divert`. Prototypes,
 * `instanceof` and Node's own call-style uses (`net.Socket.call(this, …)`) are unchanged for every
 * other fd. The real stdout stream was created before this runs (stdoutGuard.ts).
 */
import net from 'node:net';
import tty from 'node:tty';
import type { Divert } from './fsGuard.ts';

type Constructor = (...args: unknown[]) => unknown;

/** A writable net.Socket without a descriptor: what it is given goes to `divert`. */
function divertingSocket(Socket: Constructor, divert: Divert, newTarget: Constructor | undefined): net.Socket {
  const socket = Reflect.construct(Socket, [{ readable: false, writable: true }], newTarget ?? Socket) as net.Socket;
  const s = socket as unknown as Record<string, unknown>;
  s._write = (chunk: Buffer, _encoding: string, callback: (error?: Error | null) => void) => {
    divert(chunk);
    callback();
  };
  s._writev = (chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void) => {
    for (const { chunk } of chunks) divert(chunk);
    callback();
  };
  // A socket with no descriptor would wait for a connection before finishing.
  s._final = (callback: () => void) => callback();
  return socket;
}

/** `Original`, except that `isFdOne(args)` constructs a diverting socket instead. */
function guarded(Original: Constructor, isFdOne: (args: unknown[]) => boolean, makeDiverting: (newTarget: Constructor | undefined) => unknown): Constructor {
  const Guarded = function (this: unknown, ...args: unknown[]) {
    if (isFdOne(args)) return makeDiverting(new.target as Constructor | undefined);
    return new.target ? Reflect.construct(Original, args, new.target) : Original.apply(this, args);
  };
  Object.setPrototypeOf(Guarded, Original); // static members
  Guarded.prototype = Original.prototype; // instanceof and subclasses see the same class
  Object.defineProperty(Guarded, 'name', { value: Original.name });
  return Guarded;
}

export function guardSockets(divert: Divert): void {
  const netModule = net as unknown as Record<string, Constructor>;
  const ttyModule = tty as unknown as Record<string, Constructor>;
  const Socket = netModule.Socket!;
  const socket = guarded(
    Socket,
    ([options]) => (options as { fd?: unknown } | null | undefined)?.fd === 1,
    (newTarget) => divertingSocket(Socket, divert, newTarget),
  );
  netModule.Socket = socket;
  netModule.Stream = socket;
  // A terminal stream is a socket too; on fd 1 it gets the plain diverting socket.
  ttyModule.WriteStream = guarded(ttyModule.WriteStream!, ([fd]) => fd === 1, () => divertingSocket(Socket, divert, undefined));
}
