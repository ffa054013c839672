import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { truncateRow } from '../layout/foldRows.ts';
import { terminalText, visibleText } from '../layout/visibleText.ts';
import { pickerMatches, relativeTime, sessionLabel, visibleWindow, type PickerState } from '../sessions/sessionPicker.ts';

/** Rows the picker uses besides its list: the top rule, the title, the filter line, and the footer. */
const CHROME_ROWS = 4;
/** Columns before a session's label: the mark, when (10 and a space), the count (8 and a space). */
const LABEL_COLUMN = 2 + 11 + 9;
const CURRENT = ' (current)';

/**
 * The session picker, in the dynamic zone under the transcript: a filter line and one row per session
 * (when, how many messages, title or first prompt), at most `maxRows` rows in all.
 */
export function SessionPicker({ store, width, maxRows }: { store: StoreApi<PickerState | undefined>; width: number; maxRows: number }) {
  const state = useStore(store, (s) => s);
  if (!state) return null;
  const matches = pickerMatches(state);
  const listRows = Math.max(1, maxRows - CHROME_ROWS);
  const selected = Math.min(state.selected, Math.max(0, matches.length - 1));
  const { start, end } = visibleWindow(matches.length, selected, listRows);
  const now = Date.now() / 1000;
  const searching = state.query.trim() !== '' && state.remote?.query !== state.query;
  const footer = state.error
    ? `could not list sessions: ${state.error}`
    : state.loading
      ? 'loading sessions…'
      : matches.length === 0
        ? searching
          ? 'searching…'
          : state.query
            ? 'no session matches'
            : 'no saved sessions yet'
        : `${selected + 1} of ${matches.length}${searching ? ' · searching messages…' : ''}${end < matches.length ? ` · ${matches.length - end} more below` : ''}`;

  return (
    <Box flexDirection="column" width={width} borderStyle="single" borderColor="cyan" borderLeft={false} borderRight={false} borderBottom={false}>
      <Text wrap="truncate-end">
        <Text color="cyan" bold>
          Sessions
        </Text>
        <Text dimColor> · type to filter · ↑/↓ select · Enter resume · Esc close</Text>
      </Text>
      <Text wrap="truncate-end">
        <Text color="cyan">{'filter: '}</Text>
        {terminalText(state.query)}
        <Text inverse> </Text>
      </Text>
      {matches.slice(start, end).map((session, index) => {
        const chosen = start + index === selected;
        const when = relativeTime(session.started_at, now).padEnd(10);
        const count = `${session.message_count} msg`.padEnd(8);
        return (
          <Text key={session.id} wrap="truncate-end" inverse={chosen}>
            <Text color={chosen ? 'cyan' : undefined}>{chosen ? '❯ ' : '  '}</Text>
            <Text dimColor={!chosen}>
              {when} {count}{' '}
            </Text>
            {/* Cut here, not by Ink: its cut can leave a row a column too wide when a CJK character straddles the edge (cli-truncate#28). */}
            {truncateRow(visibleText(sessionLabel(session)).replace(/\n/g, ' '), width - LABEL_COLUMN - (session.id === state.currentId ? CURRENT.length : 0))}
            {session.id === state.currentId ? <Text dimColor>{CURRENT}</Text> : null}
          </Text>
        );
      })}
      <Text dimColor wrap="truncate-end" color={state.error ? 'red' : undefined}>
        {footer}
      </Text>
    </Box>
  );
}

