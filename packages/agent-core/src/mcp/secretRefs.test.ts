import { describe, expect, it } from 'vitest';
import { REDACTED } from '../secrets/redactor.ts';
import { withoutServerSecrets } from './secretRefs.ts';

describe('withoutServerSecrets', () => {
  it('keeps only the ${VAR} references of env and headers values; other keys stay as given', () => {
    const entry = {
      command: 'srv',
      args: ['--token', 'x'],
      env: { A: 'tok-${USER}-x', B: '${ONE}${TWO}', C: '', D: 'plain', E: 3 },
      headers: { Authorization: 'Bearer ${TOKEN}' },
    };
    expect(withoutServerSecrets(entry)).toEqual({
      command: 'srv',
      args: ['--token', 'x'],
      env: { A: `${REDACTED}\${USER}${REDACTED}`, B: '${ONE}${TWO}', C: '', D: REDACTED, E: REDACTED },
      headers: { Authorization: `${REDACTED}\${TOKEN}` },
    });
    expect(entry.env.A).toBe('tok-${USER}-x');
    expect(withoutServerSecrets(null)).toBeNull();
    expect(withoutServerSecrets({ url: 'http://h', headers: ['not', 'a', 'mapping'] })).toEqual({ url: 'http://h', headers: ['not', 'a', 'mapping'] });
  });
});
