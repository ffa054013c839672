import { Box, Text } from 'ink';
import { fitRow } from '../layout/foldRows.ts';
import { displayText } from '../layout/visibleText.ts';
import type { ToolCallView } from '../state/viewState.ts';
import type { DetailMode } from '../details/detailsMode.ts';
import { DiffView } from './DiffView.tsx';
import { Spinner } from './Spinner.tsx';
import { ToolOutput } from './ToolOutput.tsx';

/** Lines of a finished tool's diff printed into the transcript; the rest is counted. */
export const TOOL_DIFF_ROWS = 12;

const MARK: Record<Exclude<ToolCallView['status'], 'running'>, { symbol: string; color: string }> = {
  done: { symbol: '✓', color: 'green' },
  failed: { symbol: '✗', color: 'red' },
  blocked: { symbol: '⊘', color: 'red' },
  interrupted: { symbol: '⊘', color: 'yellow' },
};

export function formatDuration(seconds: number): string {
  if (seconds < 1) return `${Math.max(0, Math.round(seconds * 1000))}ms`;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  return `${Math.floor(seconds / 60)}m${Math.round(seconds % 60)}s`;
}

/** One row, measured by Ink as the terminal draws it. */
const oneLine = (text: string) => displayText(text).replace(/\s+/g, ' ').trim();

/** What the row says after the name: why it was blocked, the error, or the summary. */
function outcome(tool: ToolCallView): string {
  const reason = tool.error ?? tool.summary;
  if (tool.status === 'blocked') return reason ? `blocked: ${reason}` : 'blocked';
  if (tool.status === 'interrupted') return reason ?? 'interrupted';
  return reason ?? '';
}

/**
 * One row per tool call: a spinner while it runs (with the newest line of its output under it),
 * then ✓ with the duration, ✗ with the error, or ⊘ when it was blocked; a file change's diff follows,
 * and with tool details expanded, what the tool returned.
 */
export function ToolLine({ tool, width, mode = 'collapsed' }: { tool: ToolCallView; width: number; mode?: DetailMode }) {
  const text = outcome(tool);
  const alarming = tool.status === 'failed' || tool.status === 'blocked';
  // A blocked call never ran, so its duration means nothing.
  const duration = tool.durationS !== undefined && tool.status !== 'blocked' ? formatDuration(tool.durationS) : '';
  // The left padding, and the mark (one column) with its space.
  const columns = width - 2 - 2;
  const [name, context, time, said] = fitRow(
    [tool.name, tool.context ? ` ${oneLine(tool.context)}` : '', duration ? ` · ${duration}` : '', text ? ` — ${oneLine(text)}` : ''],
    columns,
  );
  // `/details tools hidden`: the row alone; `expanded`: the finished tool's output under it.
  const preview = mode !== 'hidden' && tool.status === 'running' && tool.preview ? oneLine(tool.preview.split('\n').filter((line) => line.trim()).at(-1) ?? '') : '';
  return (
    <Box flexDirection="column" paddingLeft={2}>
      <Text wrap="truncate-end">
        {tool.status === 'running' ? <Spinner /> : <Text color={MARK[tool.status].color}>{MARK[tool.status].symbol}</Text>}
        <Text> </Text>
        <Text bold>{name}</Text>
        {context ? <Text>{context}</Text> : null}
        {time ? <Text dimColor>{time}</Text> : null}
        {said ? <Text color={alarming ? 'red' : undefined} dimColor={!alarming}>{said}</Text> : null}
      </Text>
      {preview ? (
        <Text dimColor wrap="truncate-end">
          {fitRow(['  ', preview], width - 2).join('')}
        </Text>
      ) : null}
      {mode === 'expanded' && tool.output && tool.status !== 'running' ? <ToolOutput output={tool.output} /> : null}
      {tool.diff && tool.status !== 'running' ? (
        <Box flexDirection="column" paddingLeft={2}>
          <DiffView diff={tool.diff} maxRows={TOOL_DIFF_ROWS} />
        </Box>
      ) : null}
    </Box>
  );
}
