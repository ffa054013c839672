/**
 * The approval card's findings, each as `⚠ rule · target — why`. Every finding gets a row whatever the
 * space (they are why the card is there); with rows to spare, one cut short gets a second row so its
 * `why` can be read.
 */
import type { ApprovalFinding } from '@hermes/rpc-server/protocol';
import stringWidth from 'string-width';
import type { FindingLevel } from './findingLines.ts';
import { truncateRow, wrapLine } from './foldRows.ts';
import { revealText } from './visibleText.ts';

export const FINDING_ICON: Record<FindingLevel, string> = { hardline: '⛔', dangerous: '⚠' };

/** The second row of a finding starts under its text. */
const CONTINUATION_INDENT = '  ';

/** A finding as text, `rule · target — why`, with its hidden characters marked and kept on one line. */
export function findingRow(finding: ApprovalFinding): string {
  return revealText(`${finding.rule} · ${finding.target} — ${finding.why}`).replace(/\n/g, '⟨LF⟩');
}

export interface FindingRow {
  level: FindingLevel;
  /** The rows as drawn, the icon included: one, or two when the text needed and got a second. */
  rows: string[];
}

const iconColumns = (level: FindingLevel) => stringWidth(FINDING_ICON[level]);

/** The room after a finding's icon and its space, in columns. */
const textWidth = (level: FindingLevel, width: number) => width - iconColumns(level) - 1;

/** How many of the findings are cut short on one row at `width` columns: those a second row would help. */
export function findingsCut(findings: readonly ApprovalFinding[], width: number): number {
  return findings.filter((finding) => wrapLine(findingRow(finding), textWidth(finding.level, width)).length > 1).length;
}

/** The findings' rows at `width` columns; the first `wraps` of those cut short get a second row. */
export function findingRows(findings: readonly ApprovalFinding[], width: number, wraps = 0): FindingRow[] {
  let left = wraps;
  return findings.map(({ level, ...finding }) => {
    const text = findingRow({ level, ...finding });
    const icon = `${FINDING_ICON[level]} `;
    const [first = '', ...rest] = wrapLine(text, textWidth(level, width));
    if (rest.length === 0) return { level, rows: [icon + first] };
    if (left <= 0) return { level, rows: [icon + truncateRow(text, textWidth(level, width))] };
    left--;
    const more = text.slice(first.length).trimStart();
    return { level, rows: [icon + first, CONTINUATION_INDENT + truncateRow(more, width - CONTINUATION_INDENT.length)] };
  });
}
