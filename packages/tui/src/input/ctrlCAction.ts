/**
 * What Ctrl+C means right now: clear the draft, else interrupt the running turn, else ask for a
 * second press, and exit on that second press (the caller disarms after ~2 s).
 */
export type CtrlCAction = 'clear-draft' | 'interrupt' | 'arm-exit' | 'exit';

export const EXIT_CONFIRM_MS = 2_000;

export interface CtrlCContext {
  draft: string;
  busy: boolean;
  /** An interrupt was already sent for this turn. */
  interrupting: boolean;
  /** The previous Ctrl+C armed the exit and the window has not passed. */
  exitArmed: boolean;
}

export function resolveCtrlC(context: CtrlCContext): CtrlCAction {
  if (context.draft !== '') return 'clear-draft';
  // A second Ctrl+C while the interrupt is on its way goes on towards exiting, so a stuck turn can
  // never trap the user.
  if (context.busy && !context.interrupting) return 'interrupt';
  return context.exitArmed ? 'exit' : 'arm-exit';
}
