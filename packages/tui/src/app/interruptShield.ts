/**
 * While another program has the terminal out of raw mode (the transcript's pager, the draft's editor),
 * Ctrl+C makes the terminal send SIGINT to its whole foreground group, hermes included, and by default
 * that ends hermes. A shield ignores SIGINT until it is lifted, and for LATE_SIGINT_MS after: the
 * signal can be taken by hermes after the program's exit (by that very signal) has been handled, and
 * with no listener left it ended hermes (seen: hermes killed by signal 2 right after it showed "the
 * pager … exited with status SIGINT", in ~1 of 8 runs of the e2e folder; the kernel decides what a
 * signal does when a thread takes it, not when it is sent). In raw mode the terminal sends no SIGINT,
 * so meanwhile only a `kill -INT` from outside goes unheeded.
 */

/** How long after the program SIGINT is still ignored (a Ctrl+C pressed in it may arrive late). */
export const LATE_SIGINT_MS = 2_000;

/** Ignores SIGINT from now on; the returned `lift` ends that LATE_SIGINT_MS later. */
export function shieldFromInterrupts(): () => void {
  const ignore = () => undefined;
  process.on('SIGINT', ignore);
  let lifted = false;
  return () => {
    if (lifted) return;
    lifted = true;
    setTimeout(() => process.off('SIGINT', ignore), LATE_SIGINT_MS).unref();
  };
}
