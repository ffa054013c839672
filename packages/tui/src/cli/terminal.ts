/** Whether `hermes` runs on an interactive terminal: the TUI needs both ends and raw mode. */
export function isInteractiveTerminal(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY && typeof process.stdin.setRawMode === 'function');
}
