import { Box, Text } from 'ink';
import { memo } from 'react';
import stringWidth from 'string-width';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { useElapsed } from '../hooks/useElapsed.ts';
import { fitRow } from '../layout/foldRows.ts';
import { statusDetails } from '../layout/statusFields.ts';
import { displayText } from '../layout/visibleText.ts';
import type { ViewState } from '../state/viewState.ts';
import { modelLabel } from './Header.tsx';
import { Spinner } from './Spinner.tsx';

/** While hermes starts, its spinner stands still this long: most starts are over sooner (scripts/bench/startup.ts). */
const STARTING_STILL_MS = 1000;

/** One row, measured by Ink as the terminal draws it. */
const oneLine = (text: string) => displayText(text).replace(/\s+/g, ' ').trim();

/** What the running turn is doing, in a word or two. */
function liveActivity(state: ViewState): string {
  const live = state.live;
  const tool = live?.tools.at(-1);
  if (tool) return `running ${tool.name}…`;
  if (live?.generating) return `preparing ${live.generating}…`;
  if (live?.text) return 'answering…';
  return 'thinking…';
}

/**
 * One line under the prompt: what hermes is doing and for how long, background tasks, the model, context,
 * tokens and cost, and the key that matters now. `width` is the terminal's: details that do not fit are
 * dropped (see `statusDetails`), then the row is cut to it (see `fitRow`), the key hint kept whole.
 * Without it the cut is left to Ink.
 *
 * Each selector reads exactly what the line shows (a streamed delta changes none of them), and it is
 * memoised, so the app repainting for a delta does not repaint it.
 */
export const StatusLine = memo(function StatusLine({ store, width }: { store: StoreApi<ViewState>; width?: number }) {
  const phase = useStore(store, (s) => s.phase);
  const busy = useStore(store, (s) => s.busy);
  const interrupting = useStore(store, (s) => s.interrupting);
  const status = useStore(store, (s) => s.status);
  const usage = useStore(store, (s) => s.usage);
  const model = useStore(store, (s) => (s.info ? oneLine(modelLabel(s.info)) : ''));
  const backgroundTasks = useStore(store, (s) => s.info?.background_tasks);
  const exitArmed = useStore(store, (s) => s.exitArmed);
  const activity = useStore(store, liveActivity);
  const prompt = useStore(store, (s) => s.prompts[0]?.kind);
  // In the approval card's command view, Esc only goes back to the choices.
  const viewing = useStore(store, (s) => s.prompts[0]?.kind === 'approval' && s.prompts[0].pager !== undefined);
  const shell = useStore(store, (s) => s.shell?.command);
  const yolo = useStore(store, (s) => s.info?.yolo === true);
  // A command the backend is still running (`/compress` holds the session while its summary call runs).
  const command = useStore(store, (s) => s.commands?.[0]);

  const running = busy || shell !== undefined || command !== undefined;
  const working = phase === 'starting' || phase === 'restarting' || running;
  const elapsedS = useElapsed(running);
  const waiting = prompt === 'approval' ? 'waiting for your approval' : prompt === 'clarify' ? 'waiting for your answer' : '';
  const label =
    waiting ||
    (shell !== undefined ? `running !${oneLine(shell)}…` : '') ||
    status ||
    (busy ? (interrupting ? 'interrupting…' : activity) : command !== undefined ? `running ${oneLine(command)}…` : phase === 'failed' ? 'backend stopped' : 'ready');
  let hint = '';
  if (exitArmed) hint = 'Press Ctrl+C again to exit';
  else if (viewing) hint = 'Esc back · Ctrl+C to deny';
  else if (prompt) hint = `Esc or Ctrl+C to ${prompt === 'approval' ? 'deny' : 'decline'}`;
  else if ((busy || command !== undefined) && !interrupting) hint = 'Ctrl+C to interrupt';
  else if (command !== undefined) hint = '';
  else if (phase === 'failed') hint = 'Ctrl+C twice to exit';
  else if (phase === 'ready' && shell === undefined) hint = `Shift+Tab: yolo ${yolo ? 'off' : 'on'}`;
  const head = [yolo ? ' ⚠ YOLO ·' : '', ` ${oneLine(label)}`];
  // The mark takes one column, the hint its width and a space.
  const room = width === undefined ? undefined : width - 1 - (hint ? stringWidth(hint) + 1 : 0);
  const details = (statusDetails({ elapsedS, backgroundTasks, model, usage }, room === undefined ? undefined : room - stringWidth(head.join(''))));
  const pieces = [...head, details ? ` · ${details}` : ''];
  const [yoloMark, labelText, detailsText] = room === undefined ? pieces : fitRow(pieces, room);

  return (
    <Box justifyContent="space-between">
      <Text wrap="truncate-end">
        {/* Nothing moves while hermes waits on the user, so neither does the mark. */}
        {waiting ? <Text color="yellow">●</Text> : working ? <Spinner stillForMs={phase === 'starting' ? STARTING_STILL_MS : 0} /> : <Text color={phase === 'failed' ? 'red' : 'green'}>●</Text>}
        {/* While yolo is on nothing asks before a dangerous command runs; that must never go unnoticed. */}
        {yoloMark ? (
          <Text color="red" bold>
            {yoloMark}
          </Text>
        ) : null}
        <Text>{labelText}</Text>
        {detailsText ? <Text dimColor>{detailsText}</Text> : null}
      </Text>
      {/* The key hint keeps its width: on a narrow terminal the details before it are cut, the line never wraps. */}
      {hint ? (
        <Box flexShrink={0}>
          <Text color={exitArmed ? 'yellow' : undefined} dimColor={!exitArmed} bold={exitArmed}>
            {' '}
            {hint}
          </Text>
        </Box>
      ) : null}
    </Box>
  );
});
