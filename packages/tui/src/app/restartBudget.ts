/**
 * How often the TUI may bring a dead backend back: a backend that keeps dying (a bad plugin, a broken
 * state.db) must not be restarted forever. The budget is pure: the caller passes the clock.
 */
import { join } from 'node:path';
import { hermesHome } from '../logging/logger.ts';

const RESTARTS_PER_WINDOW = 3;
export const RESTART_WINDOW_MS = 60_000;

export class RestartBudget {
  /** When each restart still inside the window was taken, oldest first. */
  private taken: number[] = [];

  constructor(
    readonly limit = RESTARTS_PER_WINDOW,
    readonly windowMs = RESTART_WINDOW_MS,
  ) {}

  /** Takes one restart at `now` (ms) if the window has room; false once `limit` were taken within it. */
  take(now: number): boolean {
    this.taken = this.taken.filter((at) => now - at < this.windowMs);
    if (this.taken.length >= this.limit) return false;
    this.taken.push(now);
    return true;
  }
}

/** How to go on once the TUI gave up on its backend, and where to read why it died. */
export function continueHint(storedSessionId: string | undefined): string {
  const resume = storedSessionId ? ` (or \`hermes --resume ${storedSessionId}\`)` : '';
  return `Continue with \`hermes -c\`${resume}; the backend's log is ${join(hermesHome(), 'logs', 'backend.log')}.`;
}

/** Said when the backend died once more than the budget allows; `cause` is how it ended (`exit signal SIGKILL`). */
export function budgetSpent(cause: string, storedSessionId: string | undefined, limit = RESTARTS_PER_WINDOW): string {
  return `the backend stopped again (${cause}) after ${limit} restarts within a minute, so hermes stopped restarting it. ${continueHint(storedSessionId)}`;
}
