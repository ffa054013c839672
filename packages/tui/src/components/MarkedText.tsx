import { Text, type TextProps } from 'ink';
import { markedSpans } from '../layout/visibleText.ts';

/**
 * One row of text from `revealText`, cut at the width: its markers for hidden characters and
 * lookalikes (`⟨U+FF07⟩`, `⟨ESC⟩`) stand out in inverse magenta, whatever the row's own colour.
 */
export function MarkedText({ text, ...style }: { text: string } & Omit<TextProps, 'children' | 'wrap'>) {
  return (
    <Text wrap="truncate-end" {...style}>
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
