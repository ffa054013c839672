/** The approval gate's vocabulary as it crosses the wire: levels, findings, choices, modes. */
import { array, enum as oneOf, number, optional, strictObject, string, type output } from 'zod/mini';
import { APPROVAL_CHOICES, APPROVAL_LEVELS, APPROVAL_MODES } from './approvalNames.ts';

export const ApprovalLevelSchema = oneOf(APPROVAL_LEVELS);
export type ApprovalLevel = output<typeof ApprovalLevelSchema>;

export const ApprovalChoiceSchema = oneOf(APPROVAL_CHOICES);
export type ApprovalChoice = output<typeof ApprovalChoiceSchema>;

export const ApprovalModeSchema = oneOf(APPROVAL_MODES);
export type ApprovalMode = output<typeof ApprovalModeSchema>;

/**
 * One reason a command needs approval or may never run: `rule` the effect (`delete.recursive`, …),
 * `target` the class of thing it hits (`~/.ssh`, `$HERMES_HOME`, `/etc`, `home`, `working tree`, …),
 * `why` a sentence for a human naming the actual path or program. "Session" and "always" approvals
 * remember `rule` and `target`, never the whole command.
 */
export const ApprovalFindingSchema = strictObject({
  level: oneOf(['dangerous', 'hardline']),
  rule: string(),
  target: string(),
  why: string(),
  /** The line of the command (1-based) holding what was found, when known: a client keeps it on screen. */
  line: optional(number()),
});
export type ApprovalFinding = output<typeof ApprovalFindingSchema>;

/** The gate's verdict: the most severe level over all findings, and every finding. */
export const ApprovalVerdictSchema = strictObject({ level: ApprovalLevelSchema, findings: array(ApprovalFindingSchema) });
export type ApprovalVerdict = output<typeof ApprovalVerdictSchema>;
