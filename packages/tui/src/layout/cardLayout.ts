/**
 * Row budgets for the prompt cards. A card sits in Ink's dynamic zone, which must stay shorter than
 * the terminal, so the card is given `maxRows` and folds its long parts (command, diff, question,
 * list) to fit, keeping the choices and the key hint whole. The approval card's findings, and the
 * command's lines they name, are never folded: they are why the card is there (with too many of
 * them the card is taller than `maxRows`). Short of rows, the approval card gives up the diff first,
 * then the command's other lines; never the title, the findings, their lines, the choices or the hint.
 */
import type { ApprovalChoice, ApprovalFinding } from '@hermes/rpc-server/protocol';
import { cardCommand, type CommandRow } from './cardCommand.ts';
import { openingTop, pagerRows, pagerWindow, type PagerWindow } from './commandPager.ts';
import { findingRows, findingsCut, type FindingRow } from './findingRows.ts';
import { diffRows, foldRows, foldedRows, wrapRows, type Folded } from './foldRows.ts';
import { revealText, visibleText } from './visibleText.ts';

/** Border (2) and horizontal padding (2) of a card. */
export const CARD_CHROME_COLUMNS = 4;
export const DIFF_MAX_ROWS = 10;
const DESCRIPTION_MAX_ROWS = 3;
const QUESTION_MAX_ROWS = 6;
/** The command is indented under the title. */
const COMMAND_INDENT = 2;

/** What the approval card shows of a question: the command, why it was asked, and a file change's diff. */
export interface ApprovalText {
  command: string;
  description: string;
  findings: readonly ApprovalFinding[];
  diff?: string;
}

export interface ApprovalLayout {
  findings: FindingRow[];
  /** The description's rows; the last ends in "…" when more of it did not fit. */
  description: string[];
  command: CommandRow[];
  /** Absent when the card has a diff but no row left for it. */
  diff?: Folded;
  /** Blank rows above the command, the diff and the choices; the first rows given up when space is short. */
  gaps: { command: boolean; diff: boolean; choices: boolean };
  rows: number;
}

type Part = 'command' | 'findings' | 'diff' | 'description' | 'commandGap' | 'diffGap' | 'choicesGap';

/** Raises each part to the rows it claims, in order, while `spare` rows last. */
function allot(start: Record<Part, number>, spare: number, claims: ReadonlyArray<[Part, number]>): Record<Part, number> {
  const rows = { ...start };
  let left = spare;
  for (const [part, upTo] of claims) {
    const grant = Math.min(Math.max(0, upTo - rows[part]), Math.max(0, left));
    rows[part] += grant;
    left -= grant;
  }
  return rows;
}

export function approvalLayout(text: ApprovalText, choices: readonly ApprovalChoice[], width: number, maxRows: number): ApprovalLayout {
  const inner = Math.max(10, width - CARD_CHROME_COLUMNS);
  // The description sums the findings up in a line; with the findings on the card it only repeats them.
  const descriptionRows = text.findings.length === 0 && text.description.trim() ? wrapRows(revealText(text.description.trim()), inner) : [];
  const command = cardCommand(text.command, text.findings, inner - COMMAND_INDENT);
  const diffLines = text.diff?.trim() ? diffRows(text.diff) : [];
  const hasDiff = diffLines.length > 0;
  // Shown whatever the space: the command's least (the lines holding findings), and the description when it stands in for findings.
  const start: Record<Part, number> = {
    command: command.least,
    findings: 0,
    diff: 0,
    description: Math.min(1, descriptionRows.length),
    commandGap: 0,
    diffGap: 0,
    choicesGap: 0,
  };
  // Border, title, a row per finding, choices, hint.
  const fixed = 2 + 1 + text.findings.length + choices.length + 1;
  const spare = maxRows - fixed - start.command - start.description;
  // Short of rows, the command and the diff fold first: a glimpse of each, then more of everything.
  const rows = allot(start, spare, [
    ['command', command.glimpse],
    ['diff', Math.min(1, diffLines.length)],
    ['findings', findingsCut(text.findings, inner)],
    ['choicesGap', 1],
    ['commandGap', 1],
    ['diff', Math.min(2, diffLines.length)],
    ['diffGap', hasDiff ? 1 : 0],
    ['command', command.most],
    ['description', Math.min(DESCRIPTION_MAX_ROWS, descriptionRows.length)],
    ['diff', Math.min(DIFF_MAX_ROWS, diffLines.length)],
  ]);
  const description = descriptionRows.slice(0, rows.description);
  if (description.length < descriptionRows.length && description.length > 0) description.push(`${description.pop()} …`);
  const commandRows = command.rows(rows.command);
  const diff = rows.diff > 0 ? foldRows(diffLines, rows.diff) : undefined;
  const gaps = { command: rows.commandGap > 0, diff: rows.diffGap > 0 && diff !== undefined, choices: rows.choicesGap > 0 };
  return {
    findings: findingRows(text.findings, inner, rows.findings),
    description,
    command: commandRows,
    diff,
    gaps,
    rows:
      fixed +
      rows.findings +
      description.length +
      commandRows.length +
      (diff ? foldedRows(diff) : 0) +
      (gaps.command ? 1 : 0) +
      (gaps.diff ? 1 : 0) +
      (gaps.choices ? 1 : 0),
  };
}

export interface CommandViewLayout {
  findings: FindingRow[];
  window: PagerWindow;
  /** Rows of the command in the window, and in all. */
  page: number;
  total: number;
  /** The row the view opens at: the first line holding a finding is on screen. */
  opensAt: number;
  /** A blank row above the command, when there is room for it. */
  gap: boolean;
  rows: number;
}

/** The card in its command view: findings stay on top, the command fills the rest from row `top`. */
export function commandViewLayout(text: ApprovalText, width: number, maxRows: number, top: number): CommandViewLayout {
  const inner = Math.max(10, width - CARD_CHROME_COLUMNS);
  const findings = findingRows(text.findings, inner);
  // Border, title, findings, the position and key hint.
  const fixed = 2 + 1 + findings.length + 1;
  const gap = maxRows - fixed >= 6;
  const page = Math.max(1, maxRows - fixed - (gap ? 1 : 0));
  const all = pagerRows(text.command, inner - COMMAND_INDENT, text.findings);
  const window = pagerWindow(all, top, page);
  return {
    findings,
    window,
    page,
    total: all.rows.length,
    opensAt: openingTop(all, page),
    gap,
    rows: fixed + (gap ? 1 : 0) + window.rows.length,
  };
}

export interface ClarifyLayout {
  question: Folded;
  /** The first option shown; long lists scroll with the selection. */
  firstOption: number;
  optionRows: number;
  rows: number;
}

export function clarifyLayout(questionText: string, optionCount: number, selected: number, width: number, maxRows: number): ClarifyLayout {
  const inner = Math.max(10, width - CARD_CHROME_COLUMNS);
  // Border, the margin above the options, the input row, the hint.
  const fixed = 2 + (optionCount > 0 ? 1 : 0) + 1 + 1;
  const questionRows = wrapRows(visibleText(questionText.trim() || 'hermes has a question'), inner - 2);
  const question = foldRows(questionRows, Math.min(QUESTION_MAX_ROWS, maxRows - fixed - Math.min(optionCount, 3)));
  const optionRows = Math.max(Math.min(optionCount, 1), Math.min(optionCount, maxRows - fixed - foldedRows(question)));
  const firstOption = Math.min(Math.max(0, selected - optionRows + 1), Math.max(0, optionCount - optionRows));
  return { question, firstOption, optionRows, rows: fixed + foldedRows(question) + optionRows };
}
