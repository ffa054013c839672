import { Text, type TextProps } from 'ink';
import type { ReactNode } from 'react';
import { markedSpans } from '../layout/visibleText.ts';

/**
 * One row of text from `revealText`, cut at the width: its markers for hidden characters and
 * lookalikes (`⟨U+FF07⟩`, `⟨ESC⟩`) stand out in inverse magenta, whatever the row's own colour.
 * `prefix` (a line number, a mark) is drawn before it, in its own style.
 */
export function MarkedText({ text, prefix, ...style }: { text: string; prefix?: ReactNode } & Omit<TextProps, 'children' | 'wrap'>) {
  return (
    <Text wrap="truncate-end" {...style}>
      {prefix}
      {text
        ? markedSpans(text).map((span, index) =>
            span.marked ? (
              <Text key={index} color="magenta" inverse bold={false}>
                {span.text}
              </Text>
            ) : (
              span.text
            ),
          )
        : ' '}
    </Text>
  );
}
