import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryStamp, type EntryStamp } from '../discovery/loadRecord.ts';
import { PluginHost } from '../pluginHost.ts';
import { builtinRegistry, recordingLogger, tempDir, userPlugin } from '../testing/pluginFixtures.ts';
import { KnownGood } from './knownGood.ts';

function twoEntries() {
  const home = tempDir();
  const entries = ['a', 'b'].map((name) => path.join(userPlugin(home, name, ''), 'index.mjs'));
  const stamps = () => entries.map((entry) => entryStamp(entry)!);
  return { home, entries, stamps };
}

describe('KnownGood: which loads may skip the markers', () => {
  it('covers a remembered set (or part of it) under the same hermes and Node, nothing else', () => {
    const { home, entries, stamps } = twoEntries();
    const logger = recordingLogger();
    const known = new KnownGood(home, '1.2.3', logger);
    expect(known.covers(stamps())).toBe(false); // nothing recorded yet
    known.remember(stamps());
    expect(known.covers(stamps())).toBe(true);
    expect(known.covers(stamps().slice(1))).toBe(true);
    expect(new KnownGood(home, '1.2.4', logger).covers(stamps())).toBe(false); // another hermes
    const other: EntryStamp = { entry: path.join(home, 'plugins', 'c', 'index.mjs'), mtimeMs: 1, size: 1 };
    expect(known.covers([...stamps(), other])).toBe(false); // a new plugin
    expect(known.covers([...stamps(), null])).toBe(false); // an entry that cannot be stat'ed
    fs.appendFileSync(entries[0]!, '// changed\n');
    expect(known.covers(stamps())).toBe(false);
  });

  it('forget() removes the record; a corrupt or foreign record covers nothing and says so in the log', () => {
    const { home, stamps } = twoEntries();
    const logger = recordingLogger();
    const known = new KnownGood(home, '1.2.3', logger);
    known.remember(stamps());
    expect(known.forget()).toBe(true);
    expect(known.covers(stamps())).toBe(false);
    const file = path.join(home, 'plugins', '.known-good.json');
    fs.writeFileSync(file, '{"version":1,');
    expect(known.covers(stamps())).toBe(false);
    fs.writeFileSync(file, JSON.stringify({ version: 1, hermes: '1.2.3', node: process.version, entries: [{ entry: 'x' }] }));
    expect(known.covers(stamps())).toBe(false);
    expect(logger.warnings().filter((message) => message.startsWith('ignoring %s'))).toHaveLength(2);
  });
});

describe('PluginHost: the known-good fast path only after a load that completed', () => {
  /** Loads `home` in a new host: 'fast' when the watch was told of entries imported together (no plugin named). */
  async function loadPath(home: string): Promise<'fast' | 'marked'> {
    const watched: Array<string | null> = [];
    const host = new PluginHost({ home, cwd: home, env: {}, tools: builtinRegistry(), logger: recordingLogger(), loadWatch: { start: (load) => watched.push(load.plugin), stop: () => undefined } });
    const infos = await host.load();
    expect(infos.map((i) => [i.name, i.enabled])).toEqual([['a', true], ['b', true]]);
    return watched.includes(null) ? 'fast' : 'marked';
  }

  it('a loading mark left by a load that did not complete makes the next load marked; a fast load leaves the record as it was', async () => {
    const { home } = twoEntries();
    const mark = path.join(home, 'plugins', '.loading.json');
    const record = path.join(home, 'plugins', '.known-good.json');
    expect(await loadPath(home)).toBe('marked'); // nothing known yet
    const written = fs.statSync(record);
    expect(await loadPath(home)).toBe('fast');
    expect(fs.readFileSync(mark, 'utf8')).toBe(''); // emptied: that load completed
    expect(fs.statSync(record)).toMatchObject({ ino: written.ino, mtimeMs: written.mtimeMs });

    // What a fast load that died or was stopped while importing leaves, then what a marked one leaves.
    for (const left of [{ together: 2 }, { plugin: 'b', dir: path.join(home, 'plugins', 'b') }]) {
      fs.writeFileSync(mark, JSON.stringify(left));
      expect(await loadPath(home), JSON.stringify(left)).toBe('marked');
      expect(await loadPath(home), JSON.stringify(left)).toBe('fast');
    }
  });
});
