import { describe, expect, it } from 'vitest';
import { RESTART_WINDOW_MS, RestartBudget } from './restartBudget.ts';

describe('RestartBudget', () => {
  it('allows three restarts a minute and refuses the fourth', () => {
    const budget = new RestartBudget();
    expect([0, 1_000, 2_000, 3_000].map((now) => budget.take(now))).toEqual([true, true, true, false]);
  });

  it('gives a restart back once the oldest one is a minute old', () => {
    const budget = new RestartBudget();
    for (const now of [0, 10_000, 20_000]) budget.take(now);
    expect(budget.take(RESTART_WINDOW_MS - 1)).toBe(false);
    expect(budget.take(RESTART_WINDOW_MS)).toBe(true);
    // The window now holds 10 s, 20 s and 60 s: full again until 70 s.
    expect(budget.take(RESTART_WINDOW_MS + 9_999)).toBe(false);
    expect(budget.take(RESTART_WINDOW_MS + 10_000)).toBe(true);
  });

  it('does not count refusals against the budget', () => {
    const budget = new RestartBudget(1, 1_000);
    expect(budget.take(0)).toBe(true);
    for (let now = 100; now < 1_000; now += 100) expect(budget.take(now)).toBe(false);
    expect(budget.take(1_000)).toBe(true);
  });

  it('honours a custom limit and window', () => {
    const budget = new RestartBudget(2, 500);
    expect([0, 1, 2, 500, 501, 502].map((now) => budget.take(now))).toEqual([true, true, false, true, true, false]);
  });
});
