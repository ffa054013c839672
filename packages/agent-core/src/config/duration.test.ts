import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration.ts';
import { loadConfig } from './loadConfig.ts';
import { homeWith as homeWithFiles } from '../testing/tempHome.ts';

const homeWith = (config: string) => homeWithFiles({ 'config.yaml': config }, 'duration');

describe('durations in config.yaml', () => {
  it('reads seconds and numbers with a unit', () => {
    expect([90, '90', '90s', '1.5m', '2h', '1d', '500ms', '0'].map(parseDuration)).toEqual([90, 90, 90, 90, 7200, 86_400, 0.5, 0]);
    expect(['', 'soon', '-5s', '5 years', '1h30m', true, null, -1].map(parseDuration)).toEqual(Array(8).fill(null));
  });

  it('sets sessions.idle_close and sessions.max_open, with defaults of 30 minutes and 32', () => {
    expect(loadConfig(homeWith('')).config.sessions).toEqual({ idle_close: 1800, max_open: 32 });
    const loaded = loadConfig(homeWith('sessions:\n  idle_close: 10m\n  max_open: 4\n'));
    expect(loaded.problems).toEqual([]);
    expect(loaded.config.sessions).toEqual({ idle_close: 600, max_open: 4 });
  });

  it('names a bad duration with its line and what it must be, and keeps the default', () => {
    const loaded = loadConfig(homeWith('sessions:\n  idle_close: a while\n'));
    expect(loaded.problems).toEqual([
      expect.objectContaining({ line: 2, message: expect.stringMatching(/`sessions.idle_close` must be a duration: .*30m/) }),
    ]);
    expect(loaded.config.sessions.idle_close).toBe(1800);
  });
});
