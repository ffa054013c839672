import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { appendHistory, formatEntry, HISTORY_CAP, historyFile, loadHistory, parseHistory } from './historyFile.ts';
import { PromptHistory } from './promptHistory.ts';

describe('the prompt history file', () => {
  it('writes the prompt_toolkit FileHistory format: a blank line, a # timestamp, then each line with a + prefix', () => {
    const at = new Date(2026, 11, 1, 1, 2, 3, 45);
    expect(formatEntry('first\nsecond', at)).toBe('\n# 2026-12-01 01:02:03.045000\n+first\n+second\n');
  });

  it('reads back what it appended, multi-line entries included, oldest first', () => {
    const file = historyFile(tempDir('hermes-history-'));
    appendHistory(file, 'one');
    appendHistory(file, 'two\n  indented\n');
    appendHistory(file, '+starts with plus');
    expect(loadHistory(file)).toEqual({ entries: ['one', 'two\n  indented\n', '+starts with plus'], total: 3 });
  });

  it('reads a file written by Hermes (prompt_toolkit), and a missing file as an empty history', () => {
    const text = '\n# 2025-01-02 10:00:00.000001\n+ls -la\n\n# 2025-01-02 10:00:05.000001\n+line a\n+line b\n';
    expect(parseHistory(text)).toEqual({ entries: ['ls -la', 'line a\nline b'], total: 2 });
    expect(loadHistory(join(tempDir('hermes-history-'), 'absent'))).toEqual({ entries: [] });
  });

  it('never rewrites the file: 2500 entries stay byte for byte, only the newest cap are kept in memory, a new prompt is appended', () => {
    const file = historyFile(tempDir('hermes-history-'));
    // Hermes's own timestamps (prompt_toolkit), years old: a rewrite would lose them.
    const old = new Date(2024, 0, 2, 3, 4, 5);
    const entries = Array.from({ length: 2500 }, (_, i) => `prompt ${i}`);
    // Past twice the cap, where a file used to be rewritten: the case this guards.
    expect(entries.length).toBeGreaterThan(2 * HISTORY_CAP);
    const text = entries.map((entry, i) => formatEntry(entry, new Date(old.getTime() + i * 1000))).join('');
    writeFileSync(file, text);
    const loaded = loadHistory(file);
    expect(loaded.entries).toEqual(entries.slice(-HISTORY_CAP));
    expect(loaded.total).toBe(2500);
    expect(readFileSync(file, 'utf8')).toBe(text);
    const problems: string[] = [];
    const history = new PromptHistory(file, (problem) => problems.push(problem));
    history.load();
    expect(history.size).toBe(HISTORY_CAP);
    expect(readFileSync(file, 'utf8')).toBe(text);
    history.add('a new prompt');
    const after = readFileSync(file, 'utf8');
    expect(after.startsWith(text)).toBe(true);
    expect(parseHistory(after.slice(text.length))).toEqual({ entries: ['a new prompt'], total: 1 });
    expect(problems).toEqual([]);
    // A damaged file is not rewritten either.
    const damaged = `${text}not a history line\n${formatEntry('last')}`;
    writeFileSync(file, damaged);
    expect(loadHistory(file, 5).entries).toEqual(['prompt 2496', 'prompt 2497', 'prompt 2498', 'prompt 2499', 'last']);
    expect(readFileSync(file, 'utf8')).toBe(damaged);
  });

  it('keeps only the newest entries up to the cap', () => {
    const text = Array.from({ length: 12 }, (_, i) => formatEntry(`prompt ${i}`)).join('');
    expect(parseHistory(text, 5).entries).toEqual(['prompt 7', 'prompt 8', 'prompt 9', 'prompt 10', 'prompt 11']);
  });

  it('a damaged file: the readable entries load, the bad lines are counted in a notice, and the file is left as it was', () => {
    const file = historyFile(tempDir('hermes-history-'));
    const text = `${formatEntry('good one')}garbage line\nmore garbage\n${formatEntry('good two')}`;
    writeFileSync(file, text);
    const loaded = loadHistory(file);
    expect(loaded.entries).toEqual(['good one', 'good two']);
    expect(loaded.problem).toBe(
      `${file}: 2 lines of the prompt history could not be read (the first is line 4) and were skipped; each entry's lines must start with "+"`,
    );
    const history = new PromptHistory(file, () => undefined);
    history.add('good three');
    // Appended only: the bad lines are still there for the user to look at.
    const after = readFileSync(file, 'utf8');
    expect(after.startsWith(text)).toBe(true);
    expect(after.slice(text.length)).toMatch(/^\n# \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\n\+good three\n$/);
  });

  it('a history path that cannot be read or written says so, and the prompts are still kept for this session', () => {
    // A folder where the file should be: refused to root too, unlike a chmod.
    const file = historyFile(tempDir('hermes-history-'));
    mkdirSync(file);
    const problems: string[] = [];
    const history = new PromptHistory(file, (problem) => problems.push(problem));
    history.add('new prompt');
    expect(problems[0]).toBe(`the prompt history ${file} could not be read (EISDIR); ↑ starts empty this time`);
    expect(problems[1]).toBe(`the prompt was not saved to ${file} (EISDIR); it is in this session's ↑ history only`);
    expect(history.older('')).toBe('new prompt');
  });
});

describe('walking the prompt history', () => {
  it('↑ goes back one entry at a time and stops at the oldest; ↓ comes forward and gives back the draft', () => {
    const file = historyFile(tempDir('hermes-history-'));
    appendHistory(file, 'first');
    appendHistory(file, 'second');
    const history = new PromptHistory(file, () => undefined);
    expect(history.older('my draft')).toBe('second');
    expect(history.older('second')).toBe('first');
    expect(history.older('first')).toBeUndefined();
    expect(history.newer()).toBe('second');
    expect(history.newer()).toBe('my draft');
    expect(history.newer()).toBeUndefined();
  });

  it('adds each sent prompt once to the file (a repeat of the last is not stored again) and keeps the cap in memory', () => {
    const file = historyFile(tempDir('hermes-history-'));
    const history = new PromptHistory(file, () => undefined, 3);
    for (const prompt of ['a', 'b', 'b', 'c', 'd']) history.add(prompt);
    expect(loadHistory(file).entries).toEqual(['a', 'b', 'c', 'd']);
    expect(history.size).toBe(3);
    expect([history.older(''), history.older(''), history.older(''), history.older('')]).toEqual(['d', 'c', 'b', undefined]);
  });

  it('searches back from the newest, case-insensitively, and on from a match', () => {
    const history = new PromptHistory(undefined, () => undefined);
    for (const prompt of ['git status', 'make test', 'GIT log']) history.add(prompt);
    const first = history.search('git');
    expect(first).toEqual({ index: 2, text: 'GIT log' });
    expect(history.search('git', first!.index)).toEqual({ index: 0, text: 'git status' });
    expect(history.search('git', 0)).toBeUndefined();
  });
});
