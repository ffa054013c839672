import fs from 'node:fs';
import path from 'node:path';
import { format } from 'node:util';
import { makeDirs } from '../config/hermesHome.ts';
import { redactSecrets } from '../secrets/processSecrets.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string, ...args: unknown[]): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * A synchronous append-only file logger (`$HERMES_HOME/logs/<name>.log`). Never writes to stdout,
 * which belongs to the protocol. If the file cannot be opened, lines go to `fallback` (stderr) so
 * nothing is swallowed.
 */
export function createFileLogger(
  file: string,
  options: { level?: LogLevel; fallback?: (line: string) => void; onOpenError?: (error: unknown) => void } = {},
): Logger {
  let fd: number | null = null;
  try {
    makeDirs(path.dirname(file));
    fd = fs.openSync(file, 'a', 0o600);
  } catch (error) {
    fd = null;
    options.onOpenError?.(error);
  }
  const fallback = options.fallback ?? writeStderr;
  return lineLogger(options.level, (line) => {
    if (fd === null) {
      fallback(line);
      return;
    }
    try {
      fs.writeSync(fd, line);
    } catch {
      fallback(line);
    }
  });
}

/** A logger to stderr, for a process that must not create a log file (the `--judge-only` backend). */
export function createStderrLogger(options: { level?: LogLevel } = {}): Logger {
  return lineLogger(options.level, writeStderr);
}

const writeStderr = (line: string) => void process.stderr.write(line);

function lineLogger(minLevel: LogLevel | undefined, emit: (line: string) => void): Logger {
  const min = RANK[minLevel ?? ((process.env.HERMES_LOG_LEVEL as LogLevel | undefined) ?? 'info')] ?? RANK.info;
  const write = (level: LogLevel, message: string, args: unknown[]) => {
    if (RANK[level] < min) return;
    // An Error argument prints with its stack and cause (util.format); secrets never reach the file.
    emit(redactSecrets(`${new Date().toISOString()} ${level.toUpperCase()} [${process.pid}] ${format(message, ...args)}\n`));
  };
  return {
    debug: (m, ...a) => write('debug', m, a),
    info: (m, ...a) => write('info', m, a),
    warn: (m, ...a) => write('warn', m, a),
    error: (m, ...a) => write('error', m, a),
  };
}

/** A logger that drops everything: for tests and library callers that pass none. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
