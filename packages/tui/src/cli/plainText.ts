/**
 * What the plain CLI commands print that came from elsewhere: an MCP server's stderr and errors, tool
 * and server names, config.yaml's text, a backend's error. A server can write OSC 52 (a clipboard
 * write), OSC 0 (the window title) or CSI 2J (clear screen) into its stderr; printed raw, those act on
 * the user's terminal. Escape sequences go and other control characters are spelled out, as the TUI's
 * transcript does (`displayText`); newlines stay, and tabs too: they separate a line's fields.
 */
import { displayText } from '../layout/visibleText.ts';

export function plainText(text: string): string {
  return text.split('\t').map(displayText).join('\t');
}
