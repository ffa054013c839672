/**
 * /transcript's pager as a real child process ($PAGER a shell command copying its input to a file):
 * the entries arrive in order, all of them; a pager that quits early ends the feeding without an error;
 * hermes' own output waits until the pager is gone, and its stdin readers are given back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { TERMINAL_MODES_OFF, TERMINAL_MODES_ON } from '../app/terminalModes.ts';
import { DEFAULT_DETAILS } from '../details/detailsMode.ts';
import type { TranscriptItem } from '../state/viewState.ts';
import { showInPager } from './transcriptPager.ts';

/** The entries in parts, as /transcript hands them over while it reads them. */
async function* inParts(items: readonly TranscriptItem[], size = 700): AsyncGenerator<readonly TranscriptItem[]> {
  for (let at = 0; at < items.length; at += size) yield items.slice(at, at + size);
}

afterEach(() => {
  vi.unstubAllEnvs();
});

/** Prompts and replies numbered #1… (each a few lines at width 80). */
function entries(count: number): TranscriptItem[] {
  return Array.from({ length: count }, (_, i): TranscriptItem => {
    const text = `#${i + 1} ${'words of the entry '.repeat(12)}(#${i + 1})`;
    return i % 2 === 0 ? { kind: 'user', id: i + 1, text } : { kind: 'assistant', id: i + 1, text, continued: false };
  });
}

/** A stand-in terminal: stdin with a reader (as Ink has), stdout collecting what is written. */
function terminal() {
  const stdin = new PassThrough() as unknown as NodeJS.ReadStream;
  const reader = () => undefined;
  stdin.on('readable', reader);
  const written: string[] = [];
  const stdout = new PassThrough() as unknown as NodeJS.WriteStream;
  stdout.on('data', (chunk: Buffer) => written.push(chunk.toString()));
  return { stdin, stdout, reader, written };
}

describe('showInPager', () => {
  it('gives the pager every entry, first to last, and holds other output until it is gone', async () => {
    const file = path.join(tempDir('hermes-pager-'), 'paged.txt');
    vi.stubEnv('PAGER', `cat > '${file}'`);
    const items = entries(3_000);
    const { stdin, stdout, reader, written } = terminal();
    const shown = showInPager(inParts(items), 80, DEFAULT_DETAILS, stdin, stdout);
    // What Ink would draw while the pager runs: kept off the pager's screen, written after it.
    stdout.write('FRAME');
    expect(stdin.listeners('readable')).not.toContain(reader);
    expect(await shown).toEqual({ ok: true, fed: 3_000 });
    const numbers = [...stripVTControlCharacters(fs.readFileSync(file, 'utf8')).matchAll(/\(#(\d+)\)/g)].map((m) => Number(m[1]));
    expect(numbers).toEqual(Array.from({ length: 3_000 }, (_, i) => i + 1));
    expect(stripVTControlCharacters(fs.readFileSync(file, 'utf8'))).toMatch(/^\s*❯ #1 words of the entry/);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written.join('')).toBe(`${TERMINAL_MODES_OFF}${TERMINAL_MODES_ON}FRAME`);
    expect(stdin.listeners('readable')).toContain(reader);
  });

  it('stops feeding a pager that quits early, without an error, and gives the terminal back', async () => {
    const file = path.join(tempDir('hermes-pager-'), 'head.txt');
    // Reads the first screen and quits, as `q` in less does.
    vi.stubEnv('PAGER', `head -c 4000 > '${file}'`);
    const items = entries(20_000);
    const { stdin, stdout, reader } = terminal();
    const shown = await showInPager(inParts(items), 80, DEFAULT_DETAILS, stdin, stdout);
    expect(shown.ok).toBe(true);
    // Only what the pipe held when the pager left was rendered, not the whole transcript.
    expect(shown.ok && shown.fed).toBeLessThan(items.length);
    expect(stripVTControlCharacters(fs.readFileSync(file, 'utf8'))).toMatch(/^\s*❯ #1 words of the entry/);
    expect(stdin.listeners('readable')).toContain(reader);
  });

  it('says when the entries could not all be read, after giving the pager those that were', async () => {
    const file = path.join(tempDir('hermes-pager-'), 'paged.txt');
    vi.stubEnv('PAGER', `cat > '${file}'`);
    async function* failing(): AsyncGenerator<readonly TranscriptItem[]> {
      yield entries(3);
      throw new Error('the backend is gone');
    }
    const { stdin, stdout } = terminal();
    const shown = await showInPager(failing(), 80, DEFAULT_DETAILS, stdin, stdout);
    expect(shown).toEqual({ ok: false, error: `the transcript could not be given to the pager "cat > '${file}'" whole: the backend is gone` });
    expect(stripVTControlCharacters(fs.readFileSync(file, 'utf8'))).toContain('(#3)');
  });

  it('says when the pager fails', async () => {
    vi.stubEnv('PAGER', 'exit 3');
    const { stdin, stdout } = terminal();
    expect(await showInPager(inParts(entries(10)), 80, DEFAULT_DETAILS, stdin, stdout)).toEqual({ ok: false, error: 'the pager "exit 3" exited with status 3' });
  });
});
