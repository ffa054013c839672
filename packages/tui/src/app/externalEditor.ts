/**
 * Ctrl+G: edits the draft in the user's editor. The editor gets the terminal to itself: Ink's raw
 * mode and hermes' keyboard protocols are switched off while it runs, and back on after. The editor
 * runs synchronously so Ink cannot draw over it, and no key meant for it reaches the composer. A Ctrl+C
 * the editor does not take as a key (a line-mode editor) signals hermes too: hermes is shielded from it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shieldFromInterrupts } from './interruptShield.ts';
import { TERMINAL_MODES_OFF, TERMINAL_MODES_ON } from './terminalModes.ts';

/** The editor command line: `$EDITOR`, else `$VISUAL`, else vi. May carry arguments (`code --wait`). */
function editorCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.EDITOR?.trim() || env.VISUAL?.trim() || 'vi';
}

export type EditResult = { ok: true; text: string } | { ok: false; error: string };

export function editInExternalEditor(draft: string, stdin: NodeJS.ReadStream = process.stdin, stdout: NodeJS.WriteStream = process.stdout): EditResult {
  const command = editorCommand();
  const dir = mkdtempSync(join(tmpdir(), 'hermes-draft-'));
  const file = join(dir, 'prompt.md');
  const raw = stdin.isTTY && stdin.isRaw;
  const liftShield = shieldFromInterrupts();
  try {
    writeFileSync(file, draft);
    if (raw) stdin.setRawMode(false);
    stdout.write(TERMINAL_MODES_OFF);
    // Through the shell, so an editor setting with arguments works; the path goes as $1, unquoted by no one.
    const result = spawnSync('/bin/sh', ['-c', `${command} "$1"`, 'hermes-editor', file], { stdio: 'inherit' });
    if (result.error) return { ok: false, error: `could not start the editor "${command}": ${result.error.message}; set $EDITOR` };
    if (result.status !== 0) return { ok: false, error: `the editor "${command}" exited with status ${result.status ?? result.signal}; the draft is unchanged` };
    // Editors end the file with a newline the user did not type.
    return { ok: true, text: readFileSync(file, 'utf8').replace(/\r?\n$/, '') };
  } finally {
    liftShield();
    stdout.write(TERMINAL_MODES_ON);
    if (raw) stdin.setRawMode(true);
    rmSync(dir, { recursive: true, force: true });
  }
}
