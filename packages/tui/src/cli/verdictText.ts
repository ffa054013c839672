/** `hermes approvals check` as text: a verdict for a reader, and the NDJSON lines in and out. Pure. */
import type { ApprovalsCheckParams, ApprovalsCheckResult } from '@hermes/rpc-server/protocol';
import { revealText } from '../layout/visibleText.ts';

/**
 * Control, invisible and lookalike characters shown as markers, as on the approval card (`⟨ESC⟩`,
 * `⟨U+FF07⟩`), and newlines as `⟨LF⟩`: each finding stays on one line and cannot drive the terminal.
 */
const oneLine = (text: string): string => revealText(text).replace(/\n/g, '⟨LF⟩');

/** The level on its own line, then one aligned line per finding: level, rule, target, why. */
export function formatVerdict(verdict: ApprovalsCheckResult): string {
  const rows = verdict.findings.map((f) => [f.level, oneLine(f.rule), oneLine(f.target), oneLine(f.why)]);
  const widths = [0, 1, 2].map((column) => Math.max(0, ...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) => `  ${row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]!) : cell)).join('  ')}`);
  return `${[verdict.level, ...lines].join('\n')}\n`;
}

/** The NDJSON answer to one input line: the verdict with only the wire fields (`line` when known), in a fixed order. */
export function verdictLine(verdict: ApprovalsCheckResult): string {
  const findings = verdict.findings.map(({ level, rule, target, why, line }) => ({ level, rule, target, why, ...(line === undefined ? {} : { line }) }));
  return JSON.stringify({ level: verdict.level, findings });
}

export const errorLine = (message: string): string => JSON.stringify({ error: message });

const SHAPE = 'each line must be one JSON object: {"command": "...", "cwd": "..."} or {"write_path": "...", "cwd": "..."}';

/**
 * One input line of `--json` as request params, or why it is not one. Only JSON and the object shape
 * are checked here; the backend checks the fields and names the one that is wrong.
 */
export function parseCheckLine(line: string): { params: ApprovalsCheckParams } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { error: `not JSON (${(error as Error).message}); ${SHAPE}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: SHAPE };
  const { command, write_path, cwd } = value as Record<string, unknown>;
  const params = Object.fromEntries(Object.entries({ command, write_path, cwd }).filter(([, v]) => v !== undefined));
  return { params: params as ApprovalsCheckParams };
}
