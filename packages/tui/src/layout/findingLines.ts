/**
 * Which lines of a command hold what the approval gate found. The gate numbers the command's lines
 * from 1, split at line breaks; a finding's `line` is where the command it found starts. The card
 * keeps those lines on screen and the command view marks them, so a dangerous line cannot hide in the
 * middle of a long, harmless-looking command.
 */
import type { ApprovalFinding } from '@hermes/rpc-server/protocol';
import { revealText } from './visibleText.ts';

export type FindingLevel = ApprovalFinding['level'];

/** The command's lines as the gate numbers them, hidden characters and lookalikes marked. */
export const commandLines = (command: string): string[] => revealText(command).split('\n');

/**
 * The lines holding a finding, in order, each with its gravest level. A finding without a line, or
 * with one the command does not have, anchors nothing (it is still listed among the findings).
 */
export function findingLines(findings: readonly ApprovalFinding[], lineCount: number): Map<number, FindingLevel> {
  const lines = new Map<number, FindingLevel>();
  for (const { line, level } of findings) {
    if (line === undefined || !Number.isInteger(line) || line < 1 || line > lineCount) continue;
    if (lines.get(line) !== 'hardline') lines.set(line, level);
  }
  return new Map([...lines].sort(([a], [b]) => a - b));
}
