import { Box, Text } from 'ink';
import { ToolOutput } from './ToolOutput.tsx';
import { DEFAULT_DETAILS, type DetailsModes } from '../details/detailsMode.ts';
import { hangingRows } from '../layout/hangingRows.ts';
import { displayText } from '../layout/visibleText.ts';
import { useMarkdown } from '../markdown/useMarkdown.ts';
import type { TranscriptItem } from '../state/viewState.ts';
import { Header } from './Header.tsx';
import { ConfigProblemsPanel } from './ConfigProblemsPanel.tsx';
import { SetupPanel } from './SetupPanel.tsx';
import { ShellEntry } from './ShellEntry.tsx';
import { ToolLine } from './ToolLine.tsx';

/** Marks a reply that did not finish, so a partial answer is never mistaken for a whole one. */
export function TurnMark({ status, error }: { status?: 'interrupted' | 'error'; error?: string }) {
  if (status === 'interrupted') return <Text color="yellow"> [interrupted]</Text>;
  if (status === 'error') return <Text color="red"> [error{error ? `: ${displayText(error)}` : ''}]</Text>;
  return null;
}

/**
 * A `/command` and what the backend answered, as one block: output plain, warning yellow, error red.
 * Its columns (a name, then a description) keep their rows in the description's column (hangingRows).
 */
function CommandEntry({ item, width }: { item: Extract<TranscriptItem, { kind: 'command' }>; width: number }) {
  return (
    <Box marginTop={1} flexDirection="column">
      <Text dimColor>
        {'❯ '}
        {displayText(item.command)}
      </Text>
      {[
        { text: item.output, color: undefined },
        { text: item.warning, color: 'yellow' },
        { text: item.error, color: 'red' },
      ].map(({ text, color }, index) =>
        text ? (
          <Box key={index} paddingLeft={2}>
            <Box flexGrow={1} flexShrink={1} flexBasis={0}>
              <Text color={color}>{hangingRows(displayText(text), width - 2)}</Text>
            </Box>
          </Box>
        ) : null,
      )}
    </Box>
  );
}

/** A reply, as markdown once the renderer has loaded (plain until then, or if it cannot load). */
function AssistantEntry({ item, width }: { item: Extract<TranscriptItem, { kind: 'assistant' }>; width: number }) {
  const markdown = useMarkdown();
  // The mark takes two columns; the rows are fitted to what is left.
  const text = markdown.status === 'ready' ? markdown.module.renderMarkdown(item.text, width - 2).join('\n') : displayText(item.text);
  return (
    <Box marginTop={1}>
      <Text color="magenta">{item.continued ? '  ' : '● '}</Text>
      <Box flexGrow={1} flexShrink={1} flexBasis={0}>
        <Text>
          {text}
          <TurnMark status={item.status} error={item.error} />
        </Text>
      </Box>
    </Box>
  );
}

/** One finished transcript item. */
export function TranscriptEntry({ item, width, details = DEFAULT_DETAILS }: { item: TranscriptItem; width: number; details?: DetailsModes }) {
  // <Static> lays items out without the terminal's width; without an explicit width, long text
  // would be wrapped by the terminal instead of by Ink, and Ink would miscount the rows it wrote.
  return (
    <Box width={width} flexDirection="column">
      <EntryBody item={item} width={width} details={details} />
    </Box>
  );
}

function EntryBody({ item, width, details }: { item: TranscriptItem; width: number; details: DetailsModes }) {
  switch (item.kind) {
    case 'header':
      return <Header info={item.info} />;
    case 'user':
      return (
        <Box marginTop={1}>
          <Text color="cyan" bold>
            {'❯ '}
          </Text>
          <Box flexGrow={1} flexShrink={1} flexBasis={0}>
            <Text bold>{displayText(item.text)}</Text>
          </Box>
        </Box>
      );
    case 'assistant':
      return <AssistantEntry item={item} width={width} />;
    case 'tool':
      return <ToolLine tool={item.tool} width={width} mode={details.tools} />;
    case 'toolOutput':
      return (
        <Box flexDirection="column" paddingLeft={2}>
          <Text dimColor wrap="truncate-end">
            output of {item.name} {displayText(item.context).replace(/\s+/g, ' ').trim()}
          </Text>
          <ToolOutput output={item.output} />
        </Box>
      );
    case 'setup':
      return <SetupPanel hint={item.hint} title={item.title} />;
    case 'config':
      return <ConfigProblemsPanel problems={item.problems} />;
    case 'shell':
      return <ShellEntry result={item} />;
    case 'command':
      return <CommandEntry item={item} width={width} />;
    case 'notice': {
      const color = item.level === 'error' ? 'red' : item.level === 'warn' ? 'yellow' : undefined;
      const symbol = item.level === 'error' ? '✗ ' : item.level === 'warn' ? '! ' : '· ';
      return (
        <Box marginTop={1}>
          <Text color={color} dimColor={item.level === 'info'}>
            {symbol}
            {displayText(item.text)}
          </Text>
        </Box>
      );
    }
  }
}
