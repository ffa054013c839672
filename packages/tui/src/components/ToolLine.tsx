import { Box, Text } from 'ink';
import type { ToolCallView } from '../state/viewState.ts';

const MARK: Record<ToolCallView['status'], { symbol: string; color: string }> = {
  running: { symbol: '◌', color: 'cyan' },
  done: { symbol: '✓', color: 'green' },
  failed: { symbol: '✗', color: 'red' },
  interrupted: { symbol: '⊘', color: 'yellow' },
};

export function formatDuration(seconds: number): string {
  if (seconds < 1) return `${Math.max(0, Math.round(seconds * 1000))}ms`;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  return `${Math.floor(seconds / 60)}m${Math.round(seconds % 60)}s`;
}

/** One line per tool call: mark, name, context, duration, then the summary or error. */
export function ToolLine({ tool }: { tool: ToolCallView }) {
  const mark = MARK[tool.status];
  const outcome = tool.error ?? tool.summary ?? (tool.status === 'interrupted' ? 'interrupted' : '');
  const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
  return (
    <Box flexDirection="column" paddingLeft={2}>
      <Text wrap="truncate-end">
        <Text color={mark.color}>{mark.symbol} </Text>
        <Text bold>{tool.name}</Text>
        {tool.context ? <Text> {oneLine(tool.context)}</Text> : null}
        {tool.durationS !== undefined ? <Text dimColor> · {formatDuration(tool.durationS)}</Text> : null}
        {outcome ? <Text color={tool.error ? 'red' : undefined} dimColor={!tool.error}> — {oneLine(outcome)}</Text> : null}
      </Text>
      {tool.status === 'running' && tool.preview ? (
        <Text dimColor wrap="truncate-end">
          {'  '}
          {oneLine(tool.preview.split('\n').filter(Boolean).at(-1) ?? '')}
        </Text>
      ) : null}
    </Box>
  );
}
