import fs from 'node:fs';
import path from 'node:path';
import { makeDirs, type Logger } from '@hermes/agent-core';
import { sameStamp, type EntryStamp } from '../discovery/loadRecord.ts';

/**
 * The entry files the last load imported without a throw, a time-out, a block or an exit, in
 * `$HERMES_HOME/plugins/.known-good.json` (a dot file: discovery skips it), with the hermes and Node
 * versions of that load. A load whose every JavaScript entry is still one of them (same path, mtime
 * and size) imports them in parallel without the per-entry markers (the fast path); anything else is
 * imported marked, so a plugin that hangs or ends the process is named.
 *
 * It is trusted only after a load that completed: the loading mark (LoadingMark) is emptied when a load
 * is done, so a load that dies or is stopped by the watchdog leaves it set, and the next load is marked
 * (PluginHost checks `loadInterrupted` first). It is written (atomically) when a marked load imports every
 * entry, removed when a load has an import throw or time out, and left alone by a fast load that
 * imported every entry: one mark written per start, where removing the file before importing and
 * writing it again after cost two file operations more. Only the entry file is stamped, not the files
 * it imports (knowing those would take a resolver's walk of every plugin's graph).
 */
interface KnownGoodRecord {
  version: 1;
  hermes: string;
  node: string;
  entries: EntryStamp[];
}

export class KnownGood {
  private readonly file: string;

  constructor(
    home: string,
    private readonly hermesVersion: string,
    private readonly logger: Logger,
  ) {
    this.file = path.join(home, 'plugins', '.known-good.json');
  }

  /** Whether every stamp is in the set the last completed load recorded, under the same hermes and Node. */
  covers(stamps: ReadonlyArray<EntryStamp | null>): boolean {
    const record = this.read();
    if (!record || record.hermes !== this.hermesVersion || record.node !== process.version) return false;
    const known = new Map(record.entries.map((stamp) => [stamp.entry, stamp]));
    return stamps.every((stamp) => stamp !== null && known.has(stamp.entry) && sameStamp(known.get(stamp.entry)!, stamp));
  }

  /** A load had an import fail: nothing is known-good, the next load is marked. False if the record could not be removed. */
  forget(): boolean {
    try {
      fs.rmSync(this.file, { force: true });
      return true;
    } catch (error) {
      this.logger.warn('could not remove %s: %s (delete it to have the next load import plugins one by one, named)', this.file, (error as Error).message);
      return false;
    }
  }

  /** The load completed with every one of these imported: they are known-good for the next load. */
  remember(stamps: EntryStamp[]): void {
    const record: KnownGoodRecord = { version: 1, hermes: this.hermesVersion, node: process.version, entries: stamps };
    const temporary = `${this.file}.${process.pid}.tmp`;
    try {
      makeDirs(path.dirname(this.file));
      fs.writeFileSync(temporary, `${JSON.stringify(record)}\n`);
      fs.renameSync(temporary, this.file);
    } catch (error) {
      fs.rmSync(temporary, { force: true });
      this.logger.warn('could not record the known-good plugins in %s: %s (the next load imports them one by one)', this.file, (error as Error).message);
    }
  }

  /** The record, or null when missing or unreadable (then nothing is known-good; it is rewritten by the next completed load). */
  private read(): KnownGoodRecord | null {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      return null; // no load has completed here since the last one started
    }
    try {
      const parsed = JSON.parse(text) as Partial<KnownGoodRecord>;
      const valid = parsed.version === 1 && typeof parsed.hermes === 'string' && typeof parsed.node === 'string' && Array.isArray(parsed.entries);
      if (valid && parsed.entries!.every((e) => e && typeof e.entry === 'string' && typeof e.mtimeMs === 'number' && typeof e.size === 'number')) return parsed as KnownGoodRecord;
      this.logger.warn('ignoring %s: not a known-good record (it is rewritten by the next completed load)', this.file);
    } catch (error) {
      this.logger.warn('ignoring %s: %s (it is rewritten by the next completed load)', this.file, (error as Error).message);
    }
    return null;
  }
}
