/**
 * Terminal modes hermes switches on for its lifetime. Bracketed paste makes the terminal wrap pasted
 * text in markers, so a pasted newline is text and not Enter. Restoring is idempotent and also runs
 * on process exit, so a crash does not leave the user's shell in paste mode.
 */
const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';

export interface TerminalModes {
  restore(): void;
}

export function enableTerminalModes(stdout: NodeJS.WriteStream): TerminalModes {
  let active = true;
  stdout.write(BRACKETED_PASTE_ON);
  const restore = () => {
    if (!active) return;
    active = false;
    process.off('exit', restore);
    try {
      stdout.write(BRACKETED_PASTE_OFF);
    } catch {
      // The terminal is gone (hang-up): nothing left to restore.
    }
  };
  process.on('exit', restore);
  return { restore };
}
