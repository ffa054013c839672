/**
 * `/transcript`: the whole transcript, every entry from the first, in the user's pager (`$PAGER`, else
 * `less -R`). The screen prints only the last few screens of a long session; this is where the rest is
 * read. The pager gets the terminal to itself as the external editor does (app/externalEditor.ts): Ink's
 * raw mode and hermes' keyboard protocols are off while it runs, and it runs synchronously so Ink
 * cannot draw over it. The text goes to the pager's standard input from a temporary file.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TERMINAL_MODES_OFF, TERMINAL_MODES_ON } from '../app/terminalModes.ts';
import type { DetailsModes } from '../details/detailsMode.ts';
import type { TranscriptItem } from '../state/viewState.ts';
import { forgetTextsExcept, transcriptTexts } from './transcriptTexts.ts';

/** The pager command line: `$PAGER` (may carry arguments), else `less -R` (-R: colours, not escape codes shown). */
export function pagerCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.PAGER?.trim() || 'less -R';
}

export type PagerResult = { ok: true } | { ok: false; error: string };

export function showInPager(
  items: readonly TranscriptItem[],
  width: number,
  details: DetailsModes,
  stdin: NodeJS.ReadStream = process.stdin,
  stdout: NodeJS.WriteStream = process.stdout,
): PagerResult {
  const command = pagerCommand();
  forgetTextsExcept(items);
  const text = `${transcriptTexts(items, width, details).join('\n')}\n`;
  const dir = mkdtempSync(join(tmpdir(), 'hermes-transcript-'));
  const file = join(dir, 'transcript.txt');
  const raw = stdin.isTTY && stdin.isRaw;
  let input: number | undefined;
  try {
    writeFileSync(file, text);
    input = openSync(file, 'r');
    if (raw) stdin.setRawMode(false);
    stdout.write(TERMINAL_MODES_OFF);
    const result = spawnSync('/bin/sh', ['-c', command], { stdio: [input, 'inherit', 'inherit'] });
    if (result.error) return { ok: false, error: `could not start the pager "${command}": ${result.error.message}; set $PAGER` };
    if (result.status !== 0) return { ok: false, error: `the pager "${command}" exited with status ${result.status ?? result.signal}` };
    return { ok: true };
  } finally {
    if (input !== undefined) closeSync(input);
    stdout.write(TERMINAL_MODES_ON);
    if (raw) stdin.setRawMode(true);
    rmSync(dir, { recursive: true, force: true });
  }
}
