import { Text } from 'ink';
import { diffLineKind, diffRows, foldRows, type DiffLineKind } from '../layout/foldRows.ts';
import { MarkedText } from './MarkedText.tsx';

const STYLE: Record<DiffLineKind, { color?: string; dimColor?: boolean }> = {
  header: { dimColor: true },
  hunk: { color: 'cyan' },
  add: { color: 'green' },
  remove: { color: 'red' },
  context: {},
};

/** Rows a diff takes when folded to `maxRows`. */
export function diffViewRows(diff: string, maxRows: number): number {
  return Math.min(diffRows(diff).length, Math.max(1, maxRows));
}

/**
 * A unified diff, coloured by line: one row per line (long lines are cut, not wrapped, so the row
 * count is exact), folded to `maxRows` with "+N more lines".
 */
export function DiffView({ diff, maxRows }: { diff: string; maxRows: number }) {
  const { shown, hidden } = foldRows(diffRows(diff), maxRows);
  return (
    <>
      {shown.map((line, index) => (
        <MarkedText key={index} text={line} {...STYLE[diffLineKind(line)]} />
      ))}
      {hidden > 0 ? <Text dimColor>… +{hidden} more lines</Text> : null}
    </>
  );
}
