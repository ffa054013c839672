/**
 * Terminal modes hermes switches on for its lifetime. Bracketed paste makes the terminal wrap pasted
 * text in markers, so a pasted newline is text and not Enter. The kitty keyboard protocol (push flag 1,
 * "disambiguate") and xterm's modifyOtherKeys (level 2) make Shift+Enter distinct from Enter; a
 * terminal that knows neither ignores both requests. Restoring is idempotent and also runs
 * on process exit, so a crash does not leave the user's shell in paste mode.
 */
const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';
const KITTY_KEYS_PUSH = '\x1b[>1u';
const KITTY_KEYS_POP = '\x1b[<u';
const MODIFY_OTHER_KEYS_ON = '\x1b[>4;2m';
const MODIFY_OTHER_KEYS_OFF = '\x1b[>4;0m';

export const TERMINAL_MODES_ON = BRACKETED_PASTE_ON + KITTY_KEYS_PUSH + MODIFY_OTHER_KEYS_ON;
export const TERMINAL_MODES_OFF = MODIFY_OTHER_KEYS_OFF + KITTY_KEYS_POP + BRACKETED_PASTE_OFF;

export interface TerminalModes {
  restore(): void;
}

export function enableTerminalModes(stdout: NodeJS.WriteStream): TerminalModes {
  let active = true;
  stdout.write(TERMINAL_MODES_ON);
  const restore = () => {
    if (!active) return;
    active = false;
    process.off('exit', restore);
    try {
      stdout.write(TERMINAL_MODES_OFF);
    } catch {
      // The terminal is gone (hang-up): nothing left to restore.
    }
  };
  process.on('exit', restore);
  return { restore };
}
