/**
 * Spawns the backend process with nothing but node:child_process, so `hermes` can start it before it
 * loads the client (vscode-jsonrpc), the logger or the screen's code: the backend's boot is the
 * longest wait of a start, and each millisecond the spawn comes earlier comes off it. BackendProcess
 * takes the child over once its own code has loaded.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { CLIENT_PROTOCOL_ENV, PROTOCOL_VERSION } from '@hermes/rpc-server/protocol';
import type { ProcessCommand } from './backendCommand.ts';

/** How the process ended, as seen from the moment it was spawned. */
export interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all (e.g. node missing). */
  spawnError?: string;
}

export interface SpawnedBackend {
  readonly command: ProcessCommand;
  readonly child: ChildProcessWithoutNullStreams;
  /** Settles once the process has ended and its output streams closed (watched from the spawn on, so nothing is missed). */
  readonly ended: Promise<ProcessEnd>;
  /** Gives `listener` what the process wrote to stderr so far, then each later chunk. */
  takeStderr(listener: (chunk: Buffer) => void): void;
}

export function spawnBackend(command: ProcessCommand, options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): SpawnedBackend {
  // The TUI's environment plus the caller's additions, as a shell would pass it, and the protocol this
  // TUI speaks: a backend of another one refuses to start and says so (docs/wire.md, Handshake).
  const child = spawn(command.command, command.args, {
    stdio: 'pipe',
    cwd: options.cwd,
    env: { ...process.env, ...options.env, [CLIENT_PROTOCOL_ENV]: String(PROTOCOL_VERSION) },
    windowsHide: true,
    // Its own process group: Ctrl+C in a pager or editor hermes runs (the terminal out of raw mode)
    // signals the terminal's foreground group, and must not stop the backend. It still ends with us:
    // it exits when its stdin closes.
    detached: true,
  });
  // Read from the start: a backend that fails at once ends only after its stderr was read, and its
  // last words are what the user is shown.
  const early: Buffer[] = [];
  const keep = (chunk: Buffer) => early.push(chunk);
  child.stderr.on('data', keep);
  // A TUI that exits (even on an uncaught error) takes its backend with it.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  const ended = new Promise<ProcessEnd>((resolve) => {
    // Only a process that never started ends here; an error after the spawn (a failed kill()) is not an exit.
    child.on('error', (error) => {
      if (child.pid === undefined) resolve({ code: null, signal: null, spawnError: error.message });
    });
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  void ended.then(() => process.removeListener('exit', killOnExit));
  const takeStderr = (listener: (chunk: Buffer) => void) => {
    child.stderr.off('data', keep);
    for (const chunk of early.splice(0)) listener(chunk);
    child.stderr.on('data', listener);
  };
  return { command, child, ended, takeStderr };
}
