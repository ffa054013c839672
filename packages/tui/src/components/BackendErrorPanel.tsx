import { Box, Text } from 'ink';

/** Lines of the backend's stderr shown with a startup or exit error. */
export const STDERR_LINES_SHOWN = 12;

/** The backend failed to start or died: say so, with the last things it printed. */
export function BackendErrorPanel({ message, stderrTail, logFile }: { message: string; stderrTail: string[]; logFile: string }) {
  const tail = stderrTail.filter((line) => line.trim() !== '').slice(-STDERR_LINES_SHOWN);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="red" paddingX={1} marginTop={1}>
      <Text color="red" bold>
        {message}
      </Text>
      {tail.length > 0 ? <Text dimColor>last lines it wrote to stderr:</Text> : null}
      {tail.map((line, index) => (
        <Text key={index} wrap="truncate-end">
          {line}
        </Text>
      ))}
      <Text dimColor>More in {logFile}. Press Ctrl+C twice to exit.</Text>
    </Box>
  );
}

export function errorPanelRows(message: string, stderrTail: string[], width: number): number {
  const messageRows = Math.ceil(Math.max(1, message.length) / Math.max(10, width - 4));
  return Math.min(stderrTail.filter((line) => line.trim() !== '').length, STDERR_LINES_SHOWN) + messageRows + 6;
}
