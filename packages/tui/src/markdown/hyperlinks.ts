/**
 * OSC 8 hyperlinks: whether the terminal draws them, and the escape sequence that makes one. Detection is
 * conservative (the checks `supports-hyperlinks` makes, without its dependencies): a terminal that would
 * print the sequence as garbage is worse than `text (url)`, so unknown or unsure means no.
 */

/** Whether links should be written as OSC 8 hyperlinks, read from the environment each time. */
export function hyperlinksSupported(env: NodeJS.ProcessEnv = process.env, isTTY = Boolean(process.stdout.isTTY)): boolean {
  // FORCE_HYPERLINK=1 turns them on, any other value (0, false) off, whatever the terminal.
  if (env.FORCE_HYPERLINK !== undefined) return env.FORCE_HYPERLINK !== '' && env.FORCE_HYPERLINK !== '0' && env.FORCE_HYPERLINK !== 'false';
  if (!isTTY || env.CI || env.TERM === 'dumb') return false;
  // tmux and screen pass OSC 8 on only when configured to; we cannot tell, so plain.
  if (env.TMUX || env.STY || env.TERM?.startsWith('screen') || env.TERM?.startsWith('tmux')) return false;
  if (env.WT_SESSION || env.KITTY_WINDOW_ID || env.DOMTERM) return true;
  if (Number(env.VTE_VERSION) >= 5000) return true;
  switch (env.TERM_PROGRAM) {
    case 'iTerm.app': {
      const [major = 0, minor = 0] = (env.TERM_PROGRAM_VERSION ?? '').split('.').map(Number);
      return major > 3 || (major === 3 && minor >= 1);
    }
    case 'WezTerm':
    case 'vscode':
    case 'ghostty':
      return true;
    default:
      return false;
  }
}

/**
 * Whether the links in reply `text` (as received, before `displayText`) may be OSC 8 hyperlinks. A reply
 * that carried escape sequences or BELs gets none: `displayText` drops those, and a URL built around one
 * could point somewhere other than it reads once they are gone.
 */
export function hyperlinksAllowed(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return hyperlinksSupported() && !/[\x07\x1b\x9b\x9d]/.test(text);
}

/**
 * Only web and mail addresses become links, and only when they hold no control character, space or
 * backslash (as `displayText` spells a control character out): the URL goes inside an escape sequence, so
 * an ESC or BEL in it would end the sequence early and let the rest act on the terminal.
 */
export function linkableUrl(href: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /^(?:https?:\/\/|mailto:)/i.test(href) && !/[\x00-\x20\x7f-\x9f\\]/.test(href);
}

/** `text` as an OSC 8 hyperlink to `href` (which `linkableUrl` accepted). */
export const hyperlink = (text: string, href: string): string => `\x1b]8;;${href}\x1b\\${text}\x1b]8;;\x1b\\`;
