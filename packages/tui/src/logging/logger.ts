/**
 * The TUI's logger. Ink owns the terminal, so nothing may go to stdout/stderr: lines are appended to
 * `$HERMES_HOME/logs/tui.log`. Writes are synchronous because the volume is small and a log line
 * written just before `process.exit` must not be lost.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string, context?: Record<string, unknown>): void;
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
  readonly file: string;
}

export function hermesHome(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.HERMES_HOME?.trim();
  return configured ? configured : join(homedir(), '.hermes');
}

function describe(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

export function createLogger(options: { file?: string; level?: LogLevel } = {}): Logger {
  const file = options.file ?? join(hermesHome(), 'logs', 'tui.log');
  const envLevel = process.env.HERMES_LOG_LEVEL?.toLowerCase();
  const level: LogLevel =
    options.level ?? (envLevel && envLevel in LEVEL_RANK ? (envLevel as LogLevel) : 'info');
  let directoryReady = false;
  let broken = false;

  const write = (lineLevel: LogLevel, message: string, context?: Record<string, unknown>) => {
    if (broken || LEVEL_RANK[lineLevel] < LEVEL_RANK[level]) return;
    let line = `${new Date().toISOString()} ${lineLevel.toUpperCase()} [${process.pid}] ${message}`;
    if (context) {
      const described = Object.fromEntries(Object.entries(context).map(([k, v]) => [k, describe(v)]));
      line += ` ${JSON.stringify(described)}`;
    }
    try {
      if (!directoryReady) {
        mkdirSync(dirname(file), { recursive: true });
        directoryReady = true;
      }
      appendFileSync(file, `${line}\n`);
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

/** A logger that drops everything, for tests. */
export const silentLogger: Logger = {
  file: '',
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
