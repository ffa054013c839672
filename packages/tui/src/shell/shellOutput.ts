/**
 * How a `!cmd` result reads in the transcript: whether the approval gate blocked it, and its output
 * folded so a chatty command does not flood the scrollback (stderr keeps a share of the rows, since
 * that is where the error usually is).
 */
import { foldRows, type Folded } from '../layout/foldRows.ts';
import { visibleText } from '../layout/visibleText.ts';

/** Lines of output a `!cmd` prints into the transcript, "+N more lines" markers included. */
export const SHELL_OUTPUT_ROWS = 20;

/** The exit code `shell.exec` reports when the gate refused the command (it never ran). */
export const SHELL_BLOCKED_CODE = 126;

export interface ShellResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** Why the gate blocked the command, or undefined when it ran. */
export function blockedReason(result: ShellResult): string | undefined {
  if (result.code !== SHELL_BLOCKED_CODE || !result.stderr.startsWith('BLOCKED:')) return undefined;
  const reason = result.stderr.slice('BLOCKED:'.length).trim();
  // The rest of the message is advice for the model ("Do not retry it…"), not for the person who typed it.
  const advice = reason.indexOf(' Do not retry');
  return advice > 0 ? reason.slice(0, advice) : reason;
}

/** The line `shell.exec` ends stderr with when the command was stopped (`shell.cancel`, `/stop`, hermes stopping). */
const STOPPED_LINE = /(?:^|\n)\[stopped: ([^\n]*)\]$/;

/** Why the command was stopped and what it wrote to stderr before that, or undefined when it ended on its own. */
export function stoppedReason(result: ShellResult): { reason: string; stderr: string } | undefined {
  const match = STOPPED_LINE.exec(result.stderr);
  if (!match) return undefined;
  return { reason: match[1]!, stderr: result.stderr.slice(0, match.index) };
}

/** A stream's text as display lines: escape sequences (colours) removed, other control bytes spelled out. */
export function outputLines(text: string): string[] {
  // eslint-disable-next-line no-control-regex
  const plain = visibleText(text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\x1b\][^\x07]*\x07/g, ''));
  const lines = plain.split('\n');
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  return lines;
}

/** Stdout and stderr folded to `maxRows` lines between them (each "+N more lines" marker counts). */
export function foldShellOutput(result: ShellResult, maxRows = SHELL_OUTPUT_ROWS): { stdout: Folded; stderr: Folded } {
  const out = outputLines(result.stdout);
  const err = outputLines(result.stderr);
  if (out.length + err.length <= maxRows) return { stdout: { shown: out, hidden: 0 }, stderr: { shown: err, hidden: 0 } };
  const errBudget = Math.min(err.length, Math.max(Math.floor(maxRows / 2), maxRows - out.length));
  const outBudget = maxRows - errBudget;
  return {
    stdout: out.length > 0 ? foldRows(out, outBudget) : { shown: [], hidden: 0 },
    stderr: err.length > 0 ? foldRows(err, errBudget) : { shown: [], hidden: 0 },
  };
}
