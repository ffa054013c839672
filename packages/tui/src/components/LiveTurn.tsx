import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { displayText } from '../layout/visibleText.ts';
import { useEffect } from 'react';
import { liveReplyTail } from '../markdown/liveReply.ts';
import { useMarkdown } from '../markdown/useMarkdown.ts';
import { liveReader } from '../state/liveText.ts';
import type { LiveTurn as LiveTurnState, ViewState } from '../state/viewState.ts';
import { EXPANDED_ROWS, type DetailMode } from '../details/detailsMode.ts';
import { ToolLine } from './ToolLine.tsx';

/** Running tools shown at once; more are summarised in one line. */
export const MAX_LIVE_TOOLS = 4;

/** The turn being streamed: the reply's newest rows and the tools running now. */
export function LiveTurn({ store, width, maxRows }: { store: StoreApi<ViewState>; width: number; maxRows: number }) {
  const live = useStore(store, (state) => state.live);
  const details = useStore(store, (state) => state.details);
  // Loading starts with the turn, so the model's first words usually find the renderer ready.
  const markdown = useMarkdown(Boolean(live));
  // The grammar of a code block still being written is compiled while it streams, not when it closes.
  const language = live?.scan?.inFence ? live.scan.fenceInfo : undefined;
  useEffect(() => {
    if (!language || markdown.status !== 'ready') return;
    const timer = setImmediate(() => markdown.module.prepareLanguage(language));
    return () => clearImmediate(timer);
  }, [language, markdown]);
  if (!live) return null;
  const tools = live.tools.slice(-MAX_LIVE_TOOLS);
  const hiddenTools = live.tools.length - tools.length;
  const tail = live.text ? liveReplyTail(liveReader(live), markdown, Math.max(10, width - 2), Math.max(1, maxRows), live.scan?.newlines) : undefined;
  const thinking = thinkingRows(live, details.thinking);
  return (
    <Box flexDirection="column">
      {thinking.length ? (
        <Box marginTop={1} flexDirection="column">
          {thinking.map((line, index) => (
            <Text key={index} dimColor italic wrap={details.thinking === 'expanded' ? 'truncate-end' : 'truncate-start'}>
              {index === 0 ? 'thinking: ' : '  '}
              {line}
            </Text>
          ))}
        </Box>
      ) : null}
      {tail ? (
        <Box marginTop={1}>
          <Text color="magenta">{live.committed ? '  ' : '● '}</Text>
          <Box flexDirection="column" flexGrow={1} flexShrink={1} flexBasis={0}>
            {/* One row whatever the width: liveChromeRows counts it as one. */}
            {tail.hiddenLines > 0 ? (
              <Text dimColor wrap="truncate-end">
                … {tail.hiddenLines} more {tail.hiddenLines === 1 ? 'line' : 'lines'} above (shown in full when done)
              </Text>
            ) : null}
            {/* A row a node: Ink caches every text it measures, for good, so one node for the whole
                tail kept a copy of every frame; rows repeat from frame to frame. */}
            {tail.text.split('\n').map((row, index) => (
              <Text key={index}>{row || ' '}</Text>
            ))}
          </Box>
        </Box>
      ) : null}
      {hiddenTools > 0 ? <Text dimColor>  … {hiddenTools} more tools running</Text> : null}
      {tools.map((tool) => (
        <ToolLine key={tool.toolId} tool={tool} width={width} mode={details.tools} />
      ))}
      {live.generating ? (
        <Text dimColor>
          {'  '}preparing {live.generating}…
        </Text>
      ) : null}
    </Box>
  );
}

/**
 * The reasoning shown before the reply starts, dim: one line (its newest words) when collapsed, its
 * last EXPANDED_ROWS lines when expanded, none when hidden.
 */
function thinkingRows(live: LiveTurnState, mode: DetailMode): string[] {
  if (live.text || !live.reasoning.trim() || mode === 'hidden') return [];
  const text = displayText(live.reasoning);
  if (mode === 'collapsed') return [text.replace(/\s+/g, ' ').trim()];
  return text.trim().split('\n').filter((line) => line.trim()).slice(-EXPANDED_ROWS);
}

/** Rows the live turn needs besides its text, for the height budget. */
export function liveChromeRows(state: ViewState): number {
  const live = state.live;
  if (!live) return 0;
  let rows = 2; // the text's top margin and a possible "more lines above" line
  const thinking = thinkingRows(live, state.details.thinking).length;
  if (thinking) rows += thinking + 1;
  rows += Math.min(live.tools.length, MAX_LIVE_TOOLS) * 2 + (live.tools.length > MAX_LIVE_TOOLS ? 1 : 0);
  if (live.generating) rows += 1;
  return rows;
}
