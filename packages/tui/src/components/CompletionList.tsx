import { Box, Text } from 'ink';
import stringWidth from 'string-width';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { MAX_COMPLETION_ROWS, visibleWindow, type CompletionState } from '../commands/slashCompletion.ts';

/** Rows the list takes on screen (0 when closed), for the dynamic zone's budget. */
export function completionRows(state: CompletionState | undefined, maxRows = MAX_COMPLETION_ROWS): number {
  return state ? visibleWindow(state, maxRows).items.length : 0;
}

/** The slash-command completion list under the composer: command, then its description, one row each. */
export function CompletionList({
  store,
  width,
  maxRows,
}: {
  store: StoreApi<CompletionState | undefined>;
  width: number;
  maxRows: number;
}) {
  const state = useStore(store);
  if (!state || maxRows < 1) return null;
  const { start, items } = visibleWindow(state, maxRows);
  const nameWidth = Math.min(Math.max(...items.map((item) => stringWidth(item.display))) + 2, Math.max(8, Math.floor(width / 3)));
  return (
    <Box flexDirection="column" width={width}>
      {items.map((item, index) => {
        const selected = start + index === state.selected;
        return (
          <Box key={item.text} width={width}>
            <Box width={nameWidth + 2} flexShrink={0}>
              <Text color={selected ? 'cyan' : undefined} bold={selected} wrap="truncate-end">
                {selected ? '› ' : '  '}
                {item.display}
              </Text>
            </Box>
            <Box flexGrow={1} flexShrink={1} flexBasis={0}>
              <Text dimColor wrap="truncate-end">
                {item.meta}
              </Text>
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}
