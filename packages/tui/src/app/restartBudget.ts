/**
 * How often the TUI may bring a dead backend back: a backend that keeps dying (a bad plugin, a broken
 * state.db) must not be restarted forever. Pure: the caller passes the clock.
 */
export const RESTARTS_PER_WINDOW = 3;
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
