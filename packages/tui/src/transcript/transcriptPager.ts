/**
 * `/transcript`: the whole transcript, every entry from the first, in the user's pager (`$PAGER`, else
 * `less -R`). The screen prints only the last few screens of a long session; this is where the rest is
 * read. The pager opens at once: entries are rendered and written to its standard input in slices of a
 * few milliseconds, first entry first, each slice after the event loop has had a turn, and no faster
 * than the pager reads (a pipe's backpressure: a pager showing the first screen costs the first
 * screens' rendering). A pager that quits before the end ends the feeding (EPIPE is its normal end).
 * It has the terminal to itself meanwhile (pagerTerminal.ts: Ink's keys, output and Ctrl+C held).
 */
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { TERMINAL_MODES_OFF, TERMINAL_MODES_ON } from '../app/terminalModes.ts';
import type { DetailsModes } from '../details/detailsMode.ts';
import type { TranscriptItem } from '../state/viewState.ts';
import { holdTerminal } from './pagerTerminal.ts';
import { transcriptTexts } from './transcriptTexts.ts';

/** Rendering time between two turns of the event loop (a frame's worth). */
const SLICE_MS = 16;
/** Text enough for a large terminal's first screen: the write that completes it goes out at once, not a whole slice later. */
const FIRST_SCREEN_CHARS = 16_384;

/** The pager command line: `$PAGER` (may carry arguments), else `less -R` (-R: colours, not escape codes shown). */
function pagerCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.PAGER?.trim() || 'less -R';
}

/** `fed`: how many entries went to the pager (fewer than all when it was closed before the end). */
export type PagerResult = { ok: true; fed: number } | { ok: false; error: string };

type PagerExit = { code: number | null; signal: NodeJS.Signals | null } | { error: Error };

/** `entries`: the transcript's items in order, in parts (as they are read); the pager opens before the first part is rendered. */
export async function showInPager(
  entries: AsyncIterable<readonly TranscriptItem[]>,
  width: number,
  details: DetailsModes,
  stdin: NodeJS.ReadStream = process.stdin,
  stdout: NodeJS.WriteStream = process.stdout,
): Promise<PagerResult> {
  const command = pagerCommand();
  const terminal = holdTerminal(stdin, stdout);
  try {
    terminal.write(TERMINAL_MODES_OFF);
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'inherit', 'inherit'] });
    const exited = new Promise<PagerExit>((resolve) => {
      child.once('error', (error) => resolve({ error }));
      child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    const feeding = feed(child.stdin, entries, width, details, exited);
    const [exit, fed] = await Promise.all([exited, feeding]);
    if ('error' in exit) return { ok: false, error: `could not start the pager "${command}": ${exit.error.message}; set $PAGER` };
    if (exit.code !== 0) return { ok: false, error: `the pager "${command}" exited with status ${exit.code ?? exit.signal}` };
    if (fed instanceof Error) return { ok: false, error: `the transcript could not be given to the pager "${command}" whole: ${fed.message}` };
    return { ok: true, fed };
  } finally {
    terminal.write(TERMINAL_MODES_ON);
    terminal.release();
  }
}

/**
 * Writes the entries' texts to the pager's input in time-bounded slices; answers how many were
 * written, or what stopped it: a write error (a closed pager's EPIPE is none: the user was done
 * reading), or entries that could not be read.
 */
async function feed(input: Writable, entries: AsyncIterable<readonly TranscriptItem[]>, width: number, details: DetailsModes, exited: Promise<unknown>): Promise<number | Error> {
  let failure: NodeJS.ErrnoException | undefined;
  let over = false;
  input.on('error', (error: NodeJS.ErrnoException) => {
    failure = error;
  });
  void exited.then(() => {
    over = true;
  });
  const closed = () => over || failure !== undefined || input.destroyed;
  let fed = 0;
  let written = 0;
  try {
    for await (const part of entries) {
      for (let at = 0; at < part.length && !closed(); ) {
        const started = performance.now();
        let chunk = '';
        // The chunk that brings what the pager has to a first screen goes out at once.
        const completesFirstScreen = () => written < FIRST_SCREEN_CHARS && written + chunk.length >= FIRST_SCREEN_CHARS;
        do {
          chunk += `${transcriptTexts([part[at]!], width, details)[0]}\n`;
          at += 1;
          fed += 1;
        } while (at < part.length && performance.now() - started < SLICE_MS && !completesFirstScreen());
        written += chunk.length;
        if (!input.write(chunk)) await writable(input, exited);
        else await nextTurn();
      }
      if (closed()) break;
    }
  } catch (error) {
    input.destroy();
    return error instanceof Error ? error : new Error(String(error));
  }
  // Ended when complete; a pager that is gone leaves a pipe nobody reads, closed here.
  if (!closed()) input.end();
  else input.destroy();
  if (failure && failure.code !== 'EPIPE') return failure;
  return fed;
}

/** Until the pager has read what is buffered, or is gone. */
function writable(input: Writable, exited: Promise<unknown>): Promise<unknown> {
  return Promise.race([
    new Promise((resolve) => {
      const done = () => {
        input.off('drain', done).off('close', done).off('error', done);
        resolve(undefined);
      };
      input.on('drain', done).on('close', done).on('error', done);
    }),
    exited,
  ]);
}
