import fs from 'node:fs';
import path from 'node:path';
import { makeDirs, type Logger } from '@hermes/agent-core';
import type { Counted } from '../context/registrations.ts';
import type { KnownManifest } from './discover.ts';

/**
 * What the last start that loaded plugins learned about each (counts, the error that stopped it), so
 * a listing that must not import plugins (`hermes plugins list`) can still say a plugin hung or threw.
 * Kept in `$HERMES_HOME/plugins/.last-load.json` (a dot file: discovery skips it), written once per load;
 * the plugin running when a load ended the process is in `.loading.json` beside it (LoadingMark).
 */
export type LoadRecord = Record<Counted, number> & {
  dir: string;
  error: string | null;
  failed: boolean;
  /**
   * Its import or register() blocked the whole process past the time limit (a synchronous loop: no
   * timer can fire), so a watchdog ended hermes. The entry file as it was then: while it is unchanged,
   * later starts skip the plugin instead of hanging again.
   */
  blocked?: EntryStamp;
  /** Its plugin.yaml as parsed then: discovery uses it again while the file is unchanged. */
  manifest?: KnownManifest;
};

/** The manifests the records hold, by file, for `discoverPlugins({ knownManifests })`. */
export function knownManifests(records: Record<string, LoadRecord>): Map<string, KnownManifest> {
  const known = new Map<string, KnownManifest>();
  for (const record of Object.values(records)) if (record.manifest?.file) known.set(record.manifest.file, record.manifest);
  return known;
}

/** Identifies one version of an entry file. */
export interface EntryStamp {
  entry: string;
  mtimeMs: number;
  size: number;
}

export function entryStamp(entry: string): EntryStamp | null {
  try {
    const stat = fs.statSync(entry);
    return { entry, mtimeMs: stat.mtimeMs, size: stat.size };
  } catch {
    return null;
  }
}

/** The file's contents for `records`, as writeLoadRecords writes them (a watchdog writes them too). */
function loadRecordsText(records: Record<string, LoadRecord>): string {
  return `${JSON.stringify({ version: 1, plugins: records }, null, 2)}\n`;
}

export function loadRecordFile(home: string): string {
  return path.join(home, 'plugins', '.last-load.json');
}

/** The text each `readLoadRecords` result was read from. */
const textRead = new WeakMap<Record<string, LoadRecord>, string>();

/** Writes the records, unless the file already says the same as when `previous` was read from it. */
export function writeLoadRecords(home: string, records: Record<string, LoadRecord>, logger: Logger, previous?: Record<string, LoadRecord>): void {
  const file = loadRecordFile(home);
  const text = loadRecordsText(records);
  if (previous && textRead.get(previous) === text) return;
  try {
    makeDirs(path.dirname(file));
    fs.writeFileSync(file, text);
  } catch (error) {
    logger.warn('could not record the plugin load results in %s: %s', file, (error as Error).message);
  }
}

export function readLoadRecords(home: string, logger: Logger): Record<string, LoadRecord> {
  const records = readRecordFile(home, logger);
  const running = readLoadingMark(home, logger);
  if (!running) return records;
  // The last start ended while this plugin's code ran. A block the watchdog recorded (of this very
  // entry file) says more than that; anything else recorded of it is from an older start.
  const known = records[running.plugin];
  const recordedBlock = known?.blocked && sameStamp(known.blocked, entryStamp(known.blocked.entry));
  textRead.delete(records); // no longer what the file says
  if (!recordedBlock) records[running.plugin] = { tools: 0, hooks: 0, middleware: 0, commands: 0, dir: running.dir, error: STOPPED_WHILE_LOADING, failed: true };
  return records;
}

function readRecordFile(home: string, logger: Logger): Record<string, LoadRecord> {
  const file = loadRecordFile(home);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {}; // never loaded yet
  }
  try {
    const parsed = JSON.parse(text) as { plugins?: unknown };
    const records = parsed.plugins && typeof parsed.plugins === 'object' ? (parsed.plugins as Record<string, LoadRecord>) : {};
    textRead.set(records, text);
    return records;
  } catch (error) {
    logger.warn('ignoring %s: %s (it is rewritten at the next start)', file, (error as Error).message);
    return {};
  }
}

export const sameStamp = (a: EntryStamp, b: EntryStamp | null): boolean => b !== null && a.entry === b.entry && a.mtimeMs === b.mtimeMs && a.size === b.size;

/** What the records say of a plugin whose import or register() was running when the process ended. */
const STOPPED_WHILE_LOADING = 'hermes stopped while loading it (its import or register() ended the process)';

interface RunningPlugin {
  plugin: string;
  dir: string;
}

/** The known-good fast path: `together` entries imported at once, unannounced (no plugin to name). */
interface ImportingTogether {
  together: number;
}

const loadingMarkFile = (home: string) => path.join(home, 'plugins', '.loading.json');

/**
 * Which plugin's code is running while plugins load, on disk before that code runs, so a plugin that
 * ends the process (kill -9 included) is named afterwards. One small file rewritten in place through
 * one open descriptor: it is set before every plugin's import and register(), so it must be cheap.
 * On the known-good fast path it first says only how many entries are being imported together. It is
 * emptied when loading is done, so a mark that is not empty at the next start says the last load did
 * not complete (`loadInterrupted`). The load records are written once, when loading is done;
 * `readLoadRecords` merges a named mark in.
 */
export class LoadingMark {
  private fd: number | null = null;
  private width = 0;
  private failed = false;

  constructor(
    private readonly home: string,
    private readonly logger: Logger,
  ) {}

  /** False when the mark could not be written (then it is not written again in this load). */
  set(running: RunningPlugin | ImportingTogether): boolean {
    if (this.failed) return false;
    try {
      if (this.fd === null) {
        makeDirs(path.dirname(loadingMarkFile(this.home)));
        this.fd = fs.openSync(loadingMarkFile(this.home), 'w');
      }
      // Padded over the previous text, so one write replaces it whole (JSON allows trailing spaces).
      const text = JSON.stringify(running).padEnd(this.width);
      this.width = text.length;
      fs.writeSync(this.fd, text, 0);
      return true;
    } catch (error) {
      this.failed = true;
      this.logger.warn('could not record which plugin is loading in %s: %s', loadingMarkFile(this.home), (error as Error).message);
      return false;
    }
  }

  /** Loading is over: the mark is emptied (an empty mark names nothing). */
  clear(): void {
    if (this.fd === null) return;
    try {
      fs.ftruncateSync(this.fd, 0);
      fs.closeSync(this.fd);
    } catch (error) {
      this.logger.warn('could not clear %s: %s', loadingMarkFile(this.home), (error as Error).message);
    }
    this.fd = null;
    this.width = 0;
  }
}

/** The mark's text, trimmed ('' once emptied); null when there is none (no plugin has loaded here yet). Throws when it cannot be read. */
function loadingMarkText(home: string): string | null {
  try {
    return fs.readFileSync(loadingMarkFile(home), 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Whether the last load of plugins here did not complete: its mark was never emptied (the process died
 * or was stopped while plugin code ran, or another hermes is loading right now). A mark that cannot be
 * read counts as not emptied.
 */
export function loadInterrupted(home: string): boolean {
  try {
    return Boolean(loadingMarkText(home));
  } catch {
    return true;
  }
}

function readLoadingMark(home: string, logger: Logger): RunningPlugin | null {
  let text: string | null;
  try {
    text = loadingMarkText(home);
  } catch {
    return null;
  }
  if (!text) return null;
  try {
    const mark = JSON.parse(text) as Partial<RunningPlugin>;
    return typeof mark.plugin === 'string' && typeof mark.dir === 'string' ? { plugin: mark.plugin, dir: mark.dir } : null;
  } catch (error) {
    logger.warn('ignoring %s: %s', loadingMarkFile(home), (error as Error).message);
    return null;
  }
}
