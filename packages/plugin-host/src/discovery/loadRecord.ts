import fs from 'node:fs';
import path from 'node:path';
import { makeDirs, type Logger } from '@hermes/agent-core';
import type { Counted } from '../context/registrations.ts';

/**
 * What the last start that loaded plugins learned about each (counts, the error that stopped it), so
 * a listing that must not import plugins (`hermes plugins list`) can still say a plugin hung or threw.
 * Kept in `$HERMES_HOME/plugins/.last-load.json` (a dot file: discovery skips it).
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
};

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
export function loadRecordsText(records: Record<string, LoadRecord>): string {
  return `${JSON.stringify({ version: 1, plugins: records }, null, 2)}\n`;
}

export function loadRecordFile(home: string): string {
  return path.join(home, 'plugins', '.last-load.json');
}

export function writeLoadRecords(home: string, records: Record<string, LoadRecord>, logger: Logger): void {
  const file = loadRecordFile(home);
  try {
    makeDirs(path.dirname(file));
    fs.writeFileSync(file, loadRecordsText(records));
  } catch (error) {
    logger.warn('could not record the plugin load results in %s: %s', file, (error as Error).message);
  }
}

export function readLoadRecords(home: string, logger: Logger): Record<string, LoadRecord> {
  const file = loadRecordFile(home);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {}; // never loaded yet
  }
  try {
    const parsed = JSON.parse(text) as { plugins?: unknown };
    return parsed.plugins && typeof parsed.plugins === 'object' ? (parsed.plugins as Record<string, LoadRecord>) : {};
  } catch (error) {
    logger.warn('ignoring %s: %s (it is rewritten at the next start)', file, (error as Error).message);
    return {};
  }
}
