import { SECRET_WORD_MAX as WORD_MAX } from '../secrets/redactor.ts';
import { killGroup, loadExeca, spawnShell, type ShellProcess } from './shellProcess.ts';

/** Characters of recent output kept per background process. */
const DEFAULT_BUFFER_CHARS = 64 * 1024;
/** Finished processes kept for their output, per registry; older ones are forgotten. */
const MAX_FINISHED = 50;

export type ProcessStatus = 'running' | 'exited' | 'killed';

export interface ProcessInfo {
  id: string;
  sessionId: string;
  command: string;
  cwd: string;
  pid: number;
  status: ProcessStatus;
  /** Set once the process has exited on its own. */
  exitCode?: number;
  startedAt: number;
  endedAt?: number;
}

interface Entry {
  info: ProcessInfo;
  child: ShellProcess;
  /** Rolling window of the most recent output. */
  output: string;
  /** Characters dropped from the front of `output`. */
  dropped: number;
  done: Promise<void>;
}

/** Background commands started by the terminal tool, per session, with a ring buffer of output each. */
export class ProcessRegistry {
  private readonly entries = new Map<string, Entry>();
  private nextId = 1;
  private readonly listeners = new Set<(sessionId: string) => void>();

  constructor(private readonly bufferChars = DEFAULT_BUFFER_CHARS) {}

  /** Starts `command` in its own process group. Throws if it cannot be started (e.g. a missing cwd). */
  async start(input: { command: string; cwd: string; sessionId: string; env?: Record<string, string> }): Promise<ProcessInfo> {
    await loadExeca();
    const child = spawnShell(input.command, input.cwd, input.env);
    if (child.pid === undefined) {
      // execa reports the spawn failure through the promise; surface it as the reason.
      throw new Error(`Could not start the command in ${input.cwd}`);
    }
    const info: ProcessInfo = {
      id: `bg-${this.nextId++}`,
      sessionId: input.sessionId,
      command: input.command,
      cwd: input.cwd,
      pid: child.pid,
      status: 'running',
      startedAt: Date.now(),
    };
    const entry: Entry = { info, child, output: '', dropped: 0, done: Promise.resolve() };
    child.all.on('data', (chunk: string) => {
      entry.output += chunk;
      if (entry.output.length > this.bufferChars) {
        let cut = entry.output.length - this.bufferChars;
        // Not the rest of a cut word: it may be the end of a secret, which the redactor only knows whole.
        const blank = entry.output.slice(cut, cut + WORD_MAX).search(/\s/);
        if (blank > 0) cut += blank;
        entry.output = entry.output.slice(cut);
        entry.dropped += cut;
      }
    });
    entry.done = child.then((result) => {
      info.endedAt = Date.now();
      if (info.status === 'running') {
        info.status = 'exited';
        if (typeof result.exitCode === 'number') info.exitCode = result.exitCode;
        this.changed(info.sessionId);
      }
    });
    this.entries.set(info.id, entry);
    this.prune();
    this.changed(info.sessionId);
    return { ...info };
  }

  /** Processes of one session (or all), oldest first. */
  list(sessionId?: string): ProcessInfo[] {
    return [...this.entries.values()]
      .filter((e) => sessionId === undefined || e.info.sessionId === sessionId)
      .map((e) => ({ ...e.info }));
  }

  /** How many of a session's processes are still running. */
  running(sessionId: string): number {
    return this.list(sessionId).filter((info) => info.status === 'running').length;
  }

  /** Calls `listener` with the session whose running processes changed (one started, exited or was killed); returns the unsubscribe. */
  onChange(listener: (sessionId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(sessionId: string): void {
    for (const listener of this.listeners) listener(sessionId);
  }

  get(id: string): ProcessInfo | undefined {
    const entry = this.entries.get(id);
    return entry ? { ...entry.info } : undefined;
  }

  /** Recent output (the last `lines` lines if given); `dropped` counts characters no longer kept. */
  output(id: string, lines?: number): { text: string; dropped: number } | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    // A word still being written may be the start of a secret: it waits until it is complete.
    const output = entry.info.status === 'running' ? entry.output.replace(new RegExp(`\\S{1,${WORD_MAX}}$`), '') : entry.output;
    if (lines === undefined) return { text: output, dropped: entry.dropped };
    const all = output.replace(/\n$/, '').split('\n');
    const kept = all.slice(-lines).join('\n');
    return { text: kept, dropped: entry.dropped + output.length - kept.length };
  }

  /** Kills the process group; false if the id is unknown or the process is no longer running. */
  kill(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry || entry.info.status !== 'running') return false;
    entry.info.status = 'killed';
    killGroup(entry.info.pid);
    this.changed(entry.info.sessionId);
    return true;
  }

  /** Kills every running process of a session (or of all sessions); returns how many. */
  killAll(sessionId?: string): number {
    let killed = 0;
    for (const info of this.list(sessionId)) if (this.kill(info.id)) killed += 1;
    return killed;
  }

  /** Resolves when the process has ended and its output is complete. */
  async waitForExit(id: string): Promise<ProcessInfo | undefined> {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    await entry.done;
    return { ...entry.info };
  }

  private prune(): void {
    const finished = [...this.entries.values()].filter((e) => e.info.status !== 'running');
    for (const entry of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED))) this.entries.delete(entry.info.id);
  }
}
