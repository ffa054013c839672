/**
 * Row budgets for the prompt cards. A card sits in Ink's dynamic zone, which must stay shorter than
 * the terminal, so the card is given `maxRows` and folds its long parts (command, diff, question,
 * list) to fit, keeping the choices and the key hint whole.
 */
import type { ApprovalChoice } from '@hermes/rpc-server/protocol';
import { diffRows, foldRows, foldedRows, visibleText, wrapRows, type Folded } from './foldRows.ts';

/** Border (2) and horizontal padding (2) of a card. */
export const CARD_CHROME_COLUMNS = 4;
/** Rows of a command shown before it is folded. */
export const COMMAND_MAX_ROWS = 8;
export const DIFF_MAX_ROWS = 10;
const DESCRIPTION_MAX_ROWS = 3;
const QUESTION_MAX_ROWS = 6;

export interface ApprovalLayout {
  description: Folded;
  command: Folded;
  diff?: Folded;
  rows: number;
}

export function approvalLayout(
  request: { description: string; command: string; diff?: string },
  choices: readonly ApprovalChoice[],
  width: number,
  maxRows: number,
): ApprovalLayout {
  const inner = Math.max(10, width - CARD_CHROME_COLUMNS);
  const description = foldRows(request.description.trim() ? wrapRows(visibleText(request.description.trim()), inner) : [], DESCRIPTION_MAX_ROWS);
  const hasDiff = Boolean(request.diff?.trim());
  // Border, title, the margin above the command, the margin above the choices, the choices, the hint.
  const fixed = 2 + 1 + foldedRows(description) + 1 + 1 + choices.length + 1 + (hasDiff ? 1 : 0);
  let rest = maxRows - fixed;
  // The command is indented by two columns under the title.
  const command = foldRows(wrapRows(visibleText(request.command), inner - 2), Math.min(COMMAND_MAX_ROWS, rest - (hasDiff ? 1 : 0)));
  rest -= foldedRows(command);
  const diff = hasDiff ? foldRows(diffRows(request.diff ?? ''), Math.min(DIFF_MAX_ROWS, rest)) : undefined;
  return { description, command, diff, rows: fixed + foldedRows(command) + (diff ? foldedRows(diff) : 0) };
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
