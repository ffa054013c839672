import { describe, expect, it } from 'vitest';
import { plainText } from './plainText.ts';

describe('plainText: what the plain CLI prints from a server or config.yaml', () => {
  it('drops escape sequences (clipboard write, window title, clear screen) and spells out other controls', () => {
    const hostile = 'boot\x1b]52;c;ZWNobyBwd25lZA==\x07 \x1b]0;owned\x1b\\ \x1b[2J\x1b[Hdone\x07\x9b2J\x00';
    expect(plainText(hostile)).toBe('boot  done\\x07\\x00');
  });

  it('keeps newlines and the tabs between fields', () => {
    expect(plainText('a\tconnected\ttools 2\nnext line\r\n')).toBe('a\tconnected\ttools 2\nnext line\n');
  });
});
