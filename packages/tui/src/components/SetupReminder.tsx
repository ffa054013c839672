import { Box, Text } from 'ink';
import { wrapRows } from '../layout/foldRows.ts';

const REMINDER = '⚠ No model configured: see the setup instructions above, or run hermes --demo';

/** The rows the reminder takes at `width`: it wraps on a narrow terminal rather than lose its end. */
export function setupReminderRows(width: number): number {
  return wrapRows(REMINDER, Math.max(1, width)).length;
}

/** A reminder under the transcript while no model is configured; the full instructions are above. */
export function SetupReminder({ width }: { width: number }) {
  return (
    <Box flexDirection="column">
      {wrapRows(REMINDER, Math.max(1, width)).map((row, index) => (
        <Text key={index} color="yellow" wrap="truncate-end">
          {row}
        </Text>
      ))}
    </Box>
  );
}
