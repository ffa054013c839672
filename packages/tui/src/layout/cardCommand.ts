/**
 * The command on the approval card. A command of one line, or one whose findings name no line, is
 * wrapped and folded at its end. Otherwise the lines holding findings are always shown,
 * numbered (`35│ rm -rf DIR`): a folded card must not show only the harmless lines at the top of a
 * long command. The other lines get what room is left, the first one first (it usually says what the
 * command is for), then those around each finding's line; the rest fold into `… N lines` rows. Each
 * line is one row, cut with "…" when too long: the command view (`v`) has it whole.
 */
import type { ApprovalFinding } from '@hermes/rpc-server/protocol';
import { commandLines, findingLines, type FindingLevel } from './findingLines.ts';
import { foldRows, truncateRow, wrapLine } from './foldRows.ts';

/** Rows of a command shown before it is folded, when there is room (the lines holding findings may need more). */
export const COMMAND_MAX_ROWS = 8;

export type CommandRow =
  /** A row of the command; a numbered line has its `gutter` (`35│ `), and `level` when it holds a finding. */
  | { kind: 'text'; text: string; gutter?: string; level?: FindingLevel }
  /** Lines left out between (or after) the numbered lines shown. */
  | { kind: 'fold'; lines: number }
  /** Rows left out at the end of a wrapped command. */
  | { kind: 'more'; rows: number };

/** How the command takes rows: what it needs whatever the space, a glimpse, its most, and its rows in a budget. */
export interface CardCommand {
  least: number;
  glimpse: number;
  most: number;
  rows(budget: number): CommandRow[];
}

export function cardCommand(command: string, findings: readonly ApprovalFinding[], width: number): CardCommand {
  const lines = commandLines(command);
  const anchors = lines.length > 1 ? findingLines(findings, lines.length) : new Map<number, FindingLevel>();
  if (anchors.size === 0) {
    const wrapped = lines.flatMap((line) => wrapLine(line, width));
    return {
      least: 1,
      glimpse: Math.min(2, wrapped.length),
      most: Math.min(COMMAND_MAX_ROWS, wrapped.length),
      rows: (budget) => {
        const { shown, hidden } = foldRows(wrapped, budget);
        const rows: CommandRow[] = shown.map((text) => ({ kind: 'text', text }));
        return hidden > 0 ? [...rows, { kind: 'more', rows: hidden }] : rows;
      },
    };
  }
  const least = lineExcerpt(lines, anchors, width, 0).length;
  return {
    least,
    glimpse: Math.min(lines.length, least + 1),
    // Room allowing, a line of context for each finding's line.
    most: Math.min(lines.length, Math.max(COMMAND_MAX_ROWS, least + anchors.size)),
    rows: (budget) => lineExcerpt(lines, anchors, width, budget),
  };
}

/**
 * Numbered lines of the command in about `budget` rows: every line in `anchors`, whatever the budget,
 * and as many others as fit, nearest first; the lines left out fold into one row per run.
 */
export function lineExcerpt(lines: readonly string[], anchors: ReadonlyMap<number, FindingLevel>, width: number, budget: number): CommandRow[] {
  const count = lines.length;
  // 1-based; the places before the first line and after the last count as shown, so they fold nothing.
  const shown = Array.from({ length: count + 2 }, (_, line) => line === 0 || line === count + 1 || anchors.has(line));
  let rows = rowsOf(shown, count);
  const show = (line: number) => {
    if (line < 1 || line > count || shown[line]) return;
    // Showing a line adds its row and splits its fold in two; at a fold's end it only shortens it, and it
    // replaces a fold of one line.
    const cost = (shown[line - 1] ? 0 : 1) + (shown[line + 1] ? 0 : 1);
    if (rows + cost > budget) return;
    shown[line] = true;
    rows += cost;
  };
  show(1);
  for (let distance = 1; distance < count && rows < budget; distance++) {
    for (const line of anchors.keys()) {
      show(line - distance);
      show(line + distance);
    }
    show(1 + distance);
  }
  // A fold of one line takes the row the line itself would.
  for (let line = 1; line <= count; line++) if (!shown[line] && shown[line - 1] && shown[line + 1]) shown[line] = true;

  const digits = String(count).length;
  const out: CommandRow[] = [];
  let folded = 0;
  for (let line = 1; line <= count; line++) {
    if (!shown[line]) {
      folded++;
      continue;
    }
    if (folded > 0) out.push({ kind: 'fold', lines: folded });
    folded = 0;
    const level = anchors.get(line);
    const text = truncateRow(lines[line - 1] ?? '', width - digits - 2);
    out.push({ kind: 'text', gutter: `${String(line).padStart(digits)}│ `, text, ...(level ? { level } : {}) });
  }
  if (folded > 0) out.push({ kind: 'fold', lines: folded });
  return out;
}

/** Rows the shown lines take with a fold row for each run of lines left out. */
function rowsOf(shown: readonly boolean[], count: number): number {
  let rows = 0;
  for (let line = 1; line <= count; line++) if (shown[line] || shown[line - 1]) rows++;
  return rows;
}
