import { Text } from 'ink';
import { displayText } from '../layout/visibleText.ts';
import { EXPANDED_ROWS } from '../details/detailsMode.ts';

/**
 * A finished tool's output under its row (tool details expanded): dim, indented, at most
 * EXPANDED_ROWS lines with the rest counted, each line cut to the width so rows stay countable.
 */
export function ToolOutput({ output }: { output: string }) {
  const lines = displayText(output).replace(/\s+$/, '').split('\n');
  const shown = lines.slice(0, EXPANDED_ROWS);
  const more = lines.length - shown.length;
  return (
    <>
      {shown.map((line, index) => (
        <Text key={index} dimColor wrap="truncate-end">
          {'    '}
          {line || ' '}
        </Text>
      ))}
      {more > 0 ? (
        <Text dimColor>
          {'    '}… {more} more {more === 1 ? 'line' : 'lines'}
        </Text>
      ) : null}
    </>
  );
}
