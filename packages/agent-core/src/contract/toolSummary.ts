/** The one-line `summary` of a tool result in `tool.complete`: its first line, shortened, and how many follow. */
export function summarizeResult(result: string): string {
  const lines = result.split('\n').length;
  const first = result.split('\n', 1)[0] ?? '';
  const head = first.length > 60 ? `${first.slice(0, 59)}…` : first;
  return lines > 1 ? `${head} (+${lines - 1} lines)` : head;
}
