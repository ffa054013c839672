import { describe, expect, it } from 'vitest';
import { markedSpans, revealText, visibleText } from './visibleText.ts';

describe('visibleText', () => {
  it('spells out escape sequences so a command cannot hide part of itself', () => {
    expect(visibleText('echo hi\x1b[2K\rrm -rf ~')).toBe('echo hi\\x1b[2K\nrm -rf ~');
    expect(visibleText('a\tb\x07')).toBe('a    b\\x07');
  });
});

describe('revealText', () => {
  it('shows that fullwidth quotes do not quote: the rm is plainly a command of its own', () => {
    expect(revealText('echo ＇; rm -rf DIR; echo ＇')).toBe('echo ⟨U+FF07⟩; rm -rf DIR; echo ⟨U+FF07⟩');
    expect(revealText('a ＂b＂ ；c ｜ d')).toBe('a ⟨U+FF02⟩b⟨U+FF02⟩ ⟨U+FF1B⟩c ⟨U+FF5C⟩ d');
  });

  it('marks other lookalikes of shell syntax: curly quotes, the Greek question mark, slashes, bars, minus', () => {
    expect(revealText('echo ‘x’ “y”')).toBe('echo ⟨U+2018⟩x⟨U+2019⟩ ⟨U+201C⟩y⟨U+201D⟩');
    expect(revealText('true\u037E false')).toBe('true⟨U+037E⟩ false');
    expect(revealText('rm −rf ∕etc ǀ cat')).toBe('rm ⟨U+2212⟩rf ⟨U+2215⟩etc ⟨U+01C0⟩ cat');
  });

  it('marks zero-width, bidi and other format characters, which otherwise show as nothing', () => {
    const hidden = ['\u200B', '\u200D', '\u200F', '\u202A', '\u202E', '\u2060', '\u2064', '\u2066', '\u2069', '\uFEFF', '\u00AD'];
    for (const char of hidden) {
      const code = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      expect(revealText(`rm${char} -rf x`)).toBe(`rm⟨U+${code}⟩ -rf x`);
    }
    // Trojan Source: a right-to-left override makes the end of a line read first.
    expect(revealText('echo ok \u202E; rm -rf ~ \u202C')).toBe('echo ok ⟨U+202E⟩; rm -rf ~ ⟨U+202C⟩');
    expect(revealText('a\u{E0041}b')).toBe('a⟨U+E0041⟩b');
  });

  it('marks control characters other than newline and tab, naming the common ones', () => {
    expect(revealText('echo hi\x1b[2K\rrm -rf ~')).toBe('echo hi⟨ESC⟩[2K⟨CR⟩rm -rf ~');
    expect(revealText('a\x00b\x07c\x7fd\x9be\x01')).toBe('a⟨NUL⟩b⟨BEL⟩c⟨DEL⟩d⟨U+009B⟩e⟨U+0001⟩');
    expect(revealText('one\r\ntwo\tthree')).toBe('one\ntwo    three');
  });

  it('marks spaces a shell does not split on, and line separators', () => {
    expect(revealText('rm -rf /tmp/a\u00A0/b')).toBe('rm -rf /tmp/a⟨U+00A0⟩/b');
    expect(revealText('x\u3000y\u2028z')).toBe('x⟨U+3000⟩y⟨U+2028⟩z');
  });

  it('leaves ordinary non-ASCII text alone: accents, CJK, emoji, and the em dash of prose', () => {
    const prose = 'echo "café — naïve 日本語のテキスト 🎉"';
    expect(revealText(prose)).toBe(prose);
  });

  it('marks a literal marker bracket, so text cannot pass for a marker', () => {
    expect(revealText('⟨U+FF07⟩')).toBe('⟨U+27E8⟩U+FF07⟨U+27E9⟩');
    expect(markedSpans(revealText('⟨ESC⟩')).filter((span) => span.marked)).toEqual([
      { text: '⟨U+27E8⟩', marked: true },
      { text: '⟨U+27E9⟩', marked: true },
    ]);
  });

  it('leaves lookalikes alone when asked (a diff of prose), but never hidden characters', () => {
    expect(revealText('「こんにちは」，世界\u202E', { lookalikes: false })).toBe('「こんにちは」，世界⟨U+202E⟩');
  });
});

describe('markedSpans', () => {
  it('splits revealed text into plain runs and markers', () => {
    expect(markedSpans(revealText('echo ＇x\x1b'))).toEqual([
      { text: 'echo ', marked: false },
      { text: '⟨U+FF07⟩', marked: true },
      { text: 'x', marked: false },
      { text: '⟨ESC⟩', marked: true },
    ]);
    expect(markedSpans('plain')).toEqual([{ text: 'plain', marked: false }]);
  });
});
