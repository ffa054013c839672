/**
 * The MCP stdio transport for a server hermes starts. Not the SDK's StdioClientTransport: the child
 * must lead its own process group, registered with the group watchdog, so the server and whatever it
 * starts (npx → node) die with the backend even when the backend is SIGKILLed; and its stderr is kept
 * (the last lines) to say why it failed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killGroup, watchGroup } from '../processes/shellProcess.ts';

/** Lines of the server's stderr kept for its error status. */
const STDERR_LINES = 20;
/** Bytes of one stderr line kept (a server may write a whole stack or a blob on one line). */
const STDERR_LINE_BYTES = 500;

/** How long close() waits for the server's pipes to close (after SIGTERM, SIGKILL follows at 2 s). */
const CLOSE_WAIT_MS = 3_000;

export interface StdioServerSpec {
  command: string;
  args: string[];
  /** The whole environment of the server (never merged with hermes's own here). */
  env: Record<string, string>;
  cwd?: string;
}

export class StdioChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | null = null;
  private readonly buffer = new ReadBuffer();
  private readonly stderrLines: string[] = [];
  private stderrPartial = '';
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private closing = false;

  constructor(private readonly spec: StdioServerSpec) {}

  /** The last lines the server wrote to stderr, oldest first. */
  get stderrTail(): string[] {
    return this.stderrPartial ? [...this.stderrLines, this.stderrPartial] : [...this.stderrLines];
  }

  /** How the process ended (null while it runs). */
  get exitStatus(): { code: number | null; signal: NodeJS.Signals | null } | null {
    return this.exit;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('the stdio transport is already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.spec.command, this.spec.args, {
        cwd: this.spec.cwd,
        env: this.spec.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own group: killed as a whole on close, by the exit hook and by the watchdog.
        detached: true,
        shell: false,
      });
      this.child = child;
      const closed = new Promise<void>((done) => child.once('close', () => done()));
      child.on('error', (error) => {
        // ENOENT (no such command), EACCES: the spawn itself failed.
        if (child.pid === undefined) reject(error);
        else this.onerror?.(error);
      });
      // A broken pipe is the process ending, which 'close' reports; an unhandled stream error would end hermes.
      child.stdout!.on('error', (error) => this.onerror?.(error));
      child.stderr!.on('error', (error) => this.onerror?.(error));
      child.once('spawn', () => {
        watchGroup({ pid: child.pid, finally: (done: () => void) => closed.finally(done) });
        resolve();
      });
      child.once('exit', (code, signal) => (this.exit = { code, signal }));
      child.once('close', () => {
        this.child = null;
        this.onclose?.();
      });
      child.stdout!.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
        } catch (error) {
          // One message past the buffer's cap (10 MB): the stream cannot be resynchronised; the server is ended.
          this.onerror?.(error as Error);
          void this.close();
          return;
        }
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (error) {
            // A line that is not JSON-RPC (a server printing to stdout): reported, the rest goes on.
            this.onerror?.(new Error(`the server wrote a line to stdout that is not a JSON-RPC message: ${(error as Error).message}`));
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (text: string) => this.keepStderr(text));
      child.stdin!.on('error', (error) => {
        if (!this.closing) this.onerror?.(error);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin?.writable) {
        reject(new Error('the server process is not running'));
        return;
      }
      const text = serializeMessage(message);
      if (stdin.write(text)) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends the server: closes its stdin (the polite way), then SIGTERM, then SIGKILL to its whole group. */
  async close(): Promise<void> {
    const child = this.child;
    this.closing = true;
    this.buffer.clear();
    if (!child || child.pid === undefined) return;
    const gone = new Promise<void>((done) => child.once('close', () => done()));
    child.stdin?.end();
    try {
      killGroup(child.pid);
    } catch (error) {
      // EPERM: the group is no longer ours to signal; the watchdog and the exit hook still hold it.
      this.onerror?.(error as Error);
    }
    // A process that left the group (setsid) may hold the pipes open: close does not wait for it.
    await Promise.race([gone, new Promise((done) => setTimeout(done, CLOSE_WAIT_MS).unref())]);
  }

  private keepStderr(text: string): void {
    const lines = (this.stderrPartial + text).split(/\r?\n/);
    this.stderrPartial = lines.pop()!.slice(0, STDERR_LINE_BYTES);
    for (const line of lines) {
      if (line.trim() === '') continue;
      this.stderrLines.push(line.slice(0, STDERR_LINE_BYTES));
      if (this.stderrLines.length > STDERR_LINES) this.stderrLines.shift();
    }
  }
}
