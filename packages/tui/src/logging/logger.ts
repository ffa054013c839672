/**
 * The TUI's logger. Ink owns the terminal, so nothing may go to stdout/stderr: lines are appended to
 * `$HERMES_HOME/logs/tui.log`. Writes are synchronous because the volume is small and a log line
 * written just before `process.exit` must not be lost.
 */
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string, context?: Record<string, unknown>): void;
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
  readonly file: string;
}

/**
 * `$HERMES_HOME` (default `~/.hermes`), resolved as the backend resolves it (agent-core
 * `config/hermesHome.ts`), so both name the same folder. Written twice on purpose: the TUI may import
 * only the protocol, and a folder on this machine is not part of the wire.
 */
export function hermesHome(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.HERMES_HOME?.trim();
  return configured ? resolve(configured) : join(homedir(), '.hermes');
}

function envLevel(): LogLevel | undefined {
  const configured = process.env.HERMES_LOG_LEVEL?.toLowerCase();
  return configured && configured in LEVEL_RANK ? (configured as LogLevel) : undefined;
}

function describe(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

function formatLine(level: LogLevel, message: string, context?: Record<string, unknown>): string {
  let line = `${new Date().toISOString()} ${level.toUpperCase()} [${process.pid}] ${message}`;
  if (context) {
    const described = Object.fromEntries(Object.entries(context).map(([k, v]) => [k, describe(v)]));
    line += ` ${JSON.stringify(described)}`;
  }
  return `${line}\n`;
}

/**
 * `mkdir -p`, one folder at a time: Node's recursive mkdir spins forever where a parent refuses new
 * entries with ENOENT (a HERMES_HOME under /proc). agent-core has the same helper; the TUI may not import it.
 */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let at = dir; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (error) {
      // The backend may create the same folders at the same moment.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

export function createLogger(options: { file?: string; level?: LogLevel } = {}): Logger {
  const file = options.file ?? join(hermesHome(), 'logs', 'tui.log');
  const level: LogLevel = options.level ?? envLevel() ?? 'info';
  let directoryReady = false;
  let broken = false;

  const write = (lineLevel: LogLevel, message: string, context?: Record<string, unknown>) => {
    if (broken || LEVEL_RANK[lineLevel] < LEVEL_RANK[level]) return;
    const line = formatLine(lineLevel, message, context);
    try {
      if (!directoryReady) {
        makeDirs(dirname(file));
        directoryReady = true;
      }
      appendFileSync(file, line);
    } catch {
      // An unwritable log must not take the screen down; stop trying after the first failure.
      broken = true;
    }
  };

  return {
    file,
    debug: (m, c) => write('debug', m, c),
    info: (m, c) => write('info', m, c),
    warn: (m, c) => write('warn', m, c),
    error: (m, c) => write('error', m, c),
  };
}

/**
 * A logger to a stream (stderr) for a command-line subcommand that must not create $HERMES_HOME/logs
 * (`hermes approvals check`); never for the TUI, whose screen Ink owns. Errors only unless
 * HERMES_LOG_LEVEL says otherwise: the command reports its own failures in words already.
 */
export function createStreamLogger(stream: NodeJS.WritableStream, level: LogLevel = envLevel() ?? 'error'): Logger {
  const write = (lineLevel: LogLevel, message: string, context?: Record<string, unknown>) => {
    if (LEVEL_RANK[lineLevel] >= LEVEL_RANK[level]) stream.write(formatLine(lineLevel, message, context));
  };
  return {
    file: '',
    debug: (m, c) => write('debug', m, c),
    info: (m, c) => write('info', m, c),
    warn: (m, c) => write('warn', m, c),
    error: (m, c) => write('error', m, c),
  };
}

/** A logger that drops everything, for tests. */
export const silentLogger: Logger = {
  file: '',
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
