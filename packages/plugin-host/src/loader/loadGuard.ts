import type { Logger } from '@hermes/agent-core';
import { loadRecordFile, LoadingMark, type EntryStamp, type LoadRecord } from '../discovery/loadRecord.ts';
import type { LoadWatch } from '../pluginHostTypes.ts';

/** A plugin whose code is about to run while plugins load. */
export interface LoadingPlugin {
  name: string;
  dir: string;
  entry: string;
  /** Its entry file as it is now (null: it cannot be stat'ed; a block is then not remembered). */
  stamp: EntryStamp | null;
}

/**
 * Keeps the two records of which plugin's code runs while plugins load, updated right before it runs
 * (imports run in parallel, so this is told by each entry's marker): the mark on disk, for a plugin
 * that ends the process, and the watchdog's subject, for one that blocks the thread.
 */
export class LoadGuard {
  private readonly mark: LoadingMark;
  /** The last start's records as JSON without the closing braces (made only for a watch): a blocked record is appended per plugin. */
  private recordsHead: string | null = null;

  constructor(
    private readonly home: string,
    private readonly previous: Record<string, LoadRecord>,
    private readonly limitS: number,
    logger: Logger,
    private readonly watch?: LoadWatch,
  ) {
    this.mark = new LoadingMark(home, logger);
  }

  running(plugin: LoadingPlugin): void {
    this.mark.set({ plugin: plugin.name, dir: plugin.dir });
    if (!this.watch || !plugin.stamp) return;
    if (this.recordsHead === null) {
      const inner = JSON.stringify(this.previous).slice(1, -1);
      this.recordsHead = `{"version":1,"plugins":{${inner}${inner ? ',' : ''}`;
    }
    const what = `its import or register() blocked hermes for more than ${this.limitS} s (plugins.register_timeout), so hermes was stopped`;
    const record: LoadRecord = { dir: plugin.dir, tools: 0, hooks: 0, middleware: 0, commands: 0, error: what, failed: true, blocked: plugin.stamp };
    this.watch.start({
      plugin: plugin.name,
      entry: plugin.entry,
      limitMs: this.limitS * 1000,
      recordFile: loadRecordFile(this.home),
      // Appended to the head rather than re-serializing every record per plugin (this runs 2× per plugin);
      // JSON.parse keeps the last of a repeated key, so this record replaces an older one of the plugin.
      recordsHead: this.recordsHead,
      record: `${JSON.stringify(plugin.name)}:${JSON.stringify(record)}`,
      message: `plugin ${plugin.name}: ${what}. It is skipped at the next start until ${plugin.entry} changes; fix or remove the plugin, or run \`hermes plugins disable ${plugin.name}\`.`,
    });
  }

  /**
   * The fast path (KnownGood): `count` plugins' top-level code runs unannounced, in any order. The mark
   * on disk says only that: a load that ends here leaves it, so the next load is marked and names the
   * plugin. A block is still ended past the time limit, but no plugin can be named or recorded as blocked.
   * False (and nothing watched) when the mark could not be written: the entries must be imported marked.
   */
  runningTogether(count: number): boolean {
    if (!this.mark.set({ together: count })) return false;
    if (!this.watch) return true;
    const what = `the import of one of ${count} plugins, imported together because none changed since a load that completed, blocked hermes for more than ${this.limitS} s (plugins.register_timeout), so hermes was stopped`;
    this.watch.start({
      plugin: null,
      entry: null,
      limitMs: this.limitS * 1000,
      recordFile: loadRecordFile(this.home),
      message: `plugins: ${what}. The next start runs their code one after another and names the plugin that blocks.`,
    });
    return true;
  }

  /** No plugin code is expected to run until the next `running()`. */
  idle(): void {
    this.watch?.stop();
  }

  /** Loading is over. */
  done(): void {
    this.idle();
    this.mark.clear();
  }
}
