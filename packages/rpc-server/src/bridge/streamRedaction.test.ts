import { redactSecrets, rememberSecrets } from '@hermes/agent-core';
import { describe, expect, it } from 'vitest';
import { StreamRedaction } from './streamRedaction.ts';

/** Streams `text` in pieces of `size`, as frames would carry it; returns the frames sent. */
function stream(text: string, size: number): string[] {
  const r = new StreamRedaction();
  const frames: string[] = [];
  for (let i = 0; i < text.length; i += size) frames.push(r.push(text.slice(i, i + size)));
  frames.push(r.end());
  return frames.filter(Boolean);
}

const KEY = 'sk-proj-Zq81xT0pL4mWv9rKe2Ya7cHsQ3nB6dF0';

describe('StreamRedaction', () => {
  it('sends the same redacted text as redacting the whole, whatever the piece size', () => {
    const text = Array.from({ length: 400 }, (_, i) => (i % 37 === 0 ? `key ${KEY} here,\ntoken=${KEY.slice(3)}` : `word${i}`)).join(' ');
    for (const size of [1, 3, 7, 64, 5000]) expect(stream(text, size).join(''), `pieces of ${size}`).toBe(redactSecrets(text));
  });

  it('a secret whose start was shown before a blank (`Bearer ` then the token) is still never sent', () => {
    const text = `curl -H "Authorization: Bearer ${KEY.slice(3)}" https://api.example.com/v1 and more words`;
    for (const size of [1, 2, 5, 11]) {
      const sent = stream(text, size).join('');
      expect(sent, `pieces of ${size}`).not.toMatch(/Zq81|dF0/);
      expect(sent).toMatch(/^curl -H "Authorization: (?:Bearer )?\[REDACTED\]" https:\/\/api\.example\.com\/v1 and more words$/);
    }
  });

  it('a known secret with blanks in it (a passphrase from .env) is held back from its first word', () => {
    const phrase = 'correct horse battery staple';
    rememberSecrets({}, { HERMES_TEST_PASSPHRASE: phrase });
    const text = `the passphrase is ${phrase}, keep it`;
    for (const size of [1, 4, 9]) {
      const sent = stream(text, size).join('');
      expect(sent, `pieces of ${size}`).toBe('the passphrase is [REDACTED], keep it');
    }
  });

  it('keeps what it redacts bounded on a long stream without blanks, and still redacts keys in it', () => {
    const blob = `${'A'.repeat(50_000)} ${KEY} ${'b'.repeat(50_000)}`;
    const frames = stream(blob, 64);
    expect(frames.join('')).toBe(redactSecrets(blob));
    expect(frames.join('')).toContain('sk-[REDACTED]');
  });

  it('releases text without blanks (Chinese) as it comes, and still redacts a key glued to it', () => {
    const r = new StreamRedaction();
    expect(r.push('数据库已经')).toBe('数据库已经');
    expect(r.push('连接好了。')).toBe('连接好了。');
    const text = `密钥是${KEY}，请保管好。`;
    for (const size of [1, 2, 5]) expect(stream(text, size).join(''), `pieces of ${size}`).toBe('密钥是sk-[REDACTED]，请保管好。');
  });
});
