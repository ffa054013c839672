import { Text } from 'ink';
import { VIEW_COMMAND_KEY } from '../input/approvalKeys.ts';
import type { CommandRow } from '../layout/cardCommand.ts';
import { LEVEL_COLOR } from './levelColor.ts';
import { MarkedText } from './MarkedText.tsx';

/**
 * The command's rows on the approval card: a line holding a finding is bold, its number in the
 * finding's colour; folded lines are counted in dim rows.
 */
export function CardCommand({ rows }: { rows: readonly CommandRow[] }) {
  return (
    <>
      {rows.map((row, index) => {
        switch (row.kind) {
          case 'text': {
            const color = row.level ? LEVEL_COLOR[row.level] : undefined;
            const gutter = row.gutter ? (
              <Text color={color} dimColor={!color} bold={Boolean(color)}>
                {row.gutter}
              </Text>
            ) : undefined;
            return <MarkedText key={index} prefix={gutter} text={row.text} bold={!row.gutter || Boolean(color)} />;
          }
          case 'fold':
            return (
              <Text key={index} dimColor wrap="truncate-end">
                … {row.lines} {row.lines === 1 ? 'line' : 'lines'}
              </Text>
            );
          case 'more':
            return (
              <Text key={index} dimColor wrap="truncate-end">
                … +{row.rows} more lines · {VIEW_COMMAND_KEY} to read them all
              </Text>
            );
        }
      })}
    </>
  );
}
