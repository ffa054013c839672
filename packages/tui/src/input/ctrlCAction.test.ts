import { describe, expect, it } from 'vitest';
import { resolveCtrlC } from './ctrlCAction.ts';

const idle = { draft: '', busy: false, interrupting: false, exitArmed: false };

describe('resolveCtrlC', () => {
  it('clears a non-empty draft first, even during a turn', () => {
    expect(resolveCtrlC({ ...idle, draft: 'half a thought' })).toBe('clear-draft');
    expect(resolveCtrlC({ ...idle, draft: 'x', busy: true })).toBe('clear-draft');
  });

  it('interrupts a running turn when the draft is empty', () => {
    expect(resolveCtrlC({ ...idle, busy: true })).toBe('interrupt');
  });

  it('asks for a second press before exiting, and exits on it', () => {
    expect(resolveCtrlC(idle)).toBe('arm-exit');
    expect(resolveCtrlC({ ...idle, exitArmed: true })).toBe('exit');
  });

  it('lets the user exit while an interrupt is still pending', () => {
    expect(resolveCtrlC({ ...idle, busy: true, interrupting: true })).toBe('arm-exit');
    expect(resolveCtrlC({ ...idle, busy: true, interrupting: true, exitArmed: true })).toBe('exit');
  });
});
