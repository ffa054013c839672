/** The approval vocabulary as plain lists (no zod): the schemas in approvals.ts are built from them. */

/** Persistent approval modes (`approvals.mode` in config.yaml, `/approvals`). */
export const APPROVAL_MODES = ['manual', 'off'] as const;
/** What a human may answer to an approval request. */
export const APPROVAL_CHOICES = ['once', 'session', 'always', 'deny'] as const;
/** The approval gate's verdict on a command or file write, least severe first. */
export const APPROVAL_LEVELS = ['safe', 'dangerous', 'hardline'] as const;
