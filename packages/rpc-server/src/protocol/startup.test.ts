import { describe, expect, it } from 'vitest';
import { splitFix } from './startup.ts';

describe('splitFix', () => {
  it('splits a message at its " Fix: " into what is wrong and the fix', () => {
    expect(splitFix('/h/state.db cannot be written. Fix: chmod u+rwx /h')).toEqual({ detail: '/h/state.db cannot be written.', fix: 'chmod u+rwx /h' });
  });

  it('leaves a message with no fix whole, with no fix', () => {
    expect(splitFix('the backend exited (Fixes later)')).toEqual({ detail: 'the backend exited (Fixes later)' });
  });
});
