import { Text } from 'ink';
import { describe, expect, it } from 'vitest';
import { renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { MarkedText } from './MarkedText.tsx';

describe('MarkedText', () => {
  it('draws markers in inverse magenta whatever the row colour, and the prefix in its own style', () => {
    const styled = renderStyled(<MarkedText text="echo ⟨U+FF07⟩hi⟨ESC⟩" color="yellow" prefix={<Text color="red">› </Text>} />, 40);
    expect(stylesAt(styled, '›')).toEqual(['red']);
    expect(stylesAt(styled, 'echo')).toEqual(['yellow']);
    expect(stylesAt(styled, '⟨U+FF07⟩')).toEqual(['inverse', 'magenta']);
    expect(stylesAt(styled, 'hi')).toEqual(['yellow']);
    expect(stylesAt(styled, '⟨ESC⟩')).toEqual(['inverse', 'magenta']);
  });

  it('cuts the row at the width with "…" and draws an empty row as one', () => {
    expect(renderRows(<MarkedText text={'word '.repeat(10)} />, 20)).toEqual(['word word word word…']);
    expect(renderRows(<MarkedText text="日本語のテキストです" />, 9)).toEqual(['日本語の…']);
    expect(renderRows(<><MarkedText text="" /><MarkedText text="after" /></>, 20)).toEqual(['', 'after']);
  });
});
