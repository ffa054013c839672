import { describe, expect, it } from 'vitest';
import { StderrRing } from './stderrRing.ts';

describe('StderrRing', () => {
  it('keeps only the newest lines', () => {
    const ring = new StderrRing(3);
    ring.push('one\ntwo\nthree\nfour\n');
    expect(ring.tail()).toEqual(['two', 'three', 'four']);
  });

  it('joins a line split across chunks, including a split UTF-8 character', () => {
    const ring = new StderrRing();
    const bytes = Buffer.from('Fehler: ünbekannt\n', 'utf8');
    const cut = bytes.indexOf(0xc3) + 1;
    ring.push(bytes.subarray(0, cut));
    ring.push(bytes.subarray(cut));
    expect(ring.tail()).toEqual(['Fehler: ünbekannt']);
  });

  it('reports an unterminated last line', () => {
    const ring = new StderrRing();
    ring.push('Error: boom\n    at main');
    expect(ring.tail(1)).toEqual(['    at main']);
  });
});
