import { findStartupError } from '@hermes/rpc-server/protocol';
import { Box, Text } from 'ink';
import { wrapRows } from '../layout/foldRows.ts';
import { displayText } from '../layout/visibleText.ts';

/** Lines of the backend's stderr shown with a startup or exit error. */
export const STDERR_LINES_SHOWN = 12;
/** Border and padding around the panel's text. */
const CHROME_COLUMNS = 4;

interface PanelText {
  /** What went wrong, wrapped to the panel: the backend's own startup error (file, problem, fix) when it wrote one. */
  headline: string[];
  /** Other lines it wrote, wrapped, at most STDERR_LINES_SHOWN rows (stack frames left to the log). */
  tail: string[];
  footer: string[];
}

/** Lays the panel's text out in rows of the panel's width, so all of it shows and App can count it. */
function panelText(message: string, stderrTail: string[], logFile: string, width: number): PanelText {
  const columns = Math.max(10, width - CHROME_COLUMNS);
  // What a dying process wrote may hold escape sequences (colours, titles): shown without them.
  const lines = stderrTail.map(displayText);
  const startupError = findStartupError(lines);
  const headline = displayText(startupError ? `hermes could not start: ${startupError}` : message);
  const rest = lines.filter(
    (line) => line.trim() !== '' && !/^\s+at /.test(line) && !(startupError && line.includes(startupError)),
  );
  return {
    headline: wrapRows(headline, columns),
    tail: rest.flatMap((line) => wrapRows(line, columns)).slice(-STDERR_LINES_SHOWN),
    footer: wrapRows(`More in ${logFile}. Press Ctrl+C twice to exit.`, columns),
  };
}

/** The backend failed to start or died: say so, with the last things it printed. */
export function BackendErrorPanel({ message, stderrTail, logFile, width }: { message: string; stderrTail: string[]; logFile: string; width: number }) {
  const { headline, tail, footer } = panelText(message, stderrTail, logFile, width);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="red" paddingX={1} marginTop={1} width={width}>
      {headline.map((row, index) => (
        <Text key={`h${index}`} color="red" bold wrap="truncate-end">
          {row}
        </Text>
      ))}
      {tail.length > 0 ? <Text dimColor>last lines it wrote to stderr:</Text> : null}
      {tail.map((row, index) => (
        <Text key={`t${index}`} wrap="truncate-end">
          {row}
        </Text>
      ))}
      {footer.map((row, index) => (
        <Text key={`f${index}`} dimColor wrap="truncate-end">
          {row}
        </Text>
      ))}
    </Box>
  );
}

export function errorPanelRows(message: string, stderrTail: string[], logFile: string, width: number): number {
  const { headline, tail, footer } = panelText(message, stderrTail, logFile, width);
  // Top margin and two border rows, plus the "last lines" label when there is a tail.
  return headline.length + (tail.length ? tail.length + 1 : 0) + footer.length + 3;
}
