import { Box, Text, useStdout } from 'ink';
import { useEffect } from 'react';
import { useStore } from 'zustand';
import type { SessionController } from '../app/sessionController.ts';
import type { LocalEcho } from '../echo/localEcho.ts';
import { useAppKeys } from '../hooks/useAppKeys.ts';
import { CLEAR_ALL, useTerminalSize } from '../hooks/useTerminalSize.ts';
import { ApprovalCard } from './ApprovalCard.tsx';
import { BackendErrorPanel, errorPanelRows } from './BackendErrorPanel.tsx';
import { ClarifyCard } from './ClarifyCard.tsx';
import { CompletionList, completionRows } from './CompletionList.tsx';
import { Composer, composerRows, composerShape, composerSideRows } from './Composer.tsx';
import { LiveTurn, liveChromeRows } from './LiveTurn.tsx';
import { TodoPanel, todoPanelRows, todoPanelVisible } from './TodoPanel.tsx';
import { SessionPicker } from './SessionPicker.tsx';
import { SetupReminder, setupReminderRows } from './SetupReminder.tsx';
import { StatusLine } from './StatusLine.tsx';
import { Transcript } from './Transcript.tsx';

/** Rows kept free below the dynamic zone: Ink clears the whole screen once that zone reaches the terminal's height. */
const SAFETY_ROWS = 2;

/**
 * The screen: the finished transcript (printed once, then scrollback) above a small dynamic zone with
 * the live turn, panels, the prompt and the status line. The dynamic zone is kept shorter than the
 * terminal so Ink never has to clear the screen.
 */
export function App({ controller, onExit, echo }: { controller: SessionController; onExit: () => void; echo?: LocalEcho }) {
  const store = controller.view.store;
  const { columns, rows, reprints } = useTerminalSize();
  const busy = useStore(store, (s) => s.busy);
  const setup = useStore(store, (s) => s.setup);
  const failure = useStore(store, (s) => s.failure);
  const phase = useStore(store, (s) => s.phase);
  const chromeRows = useStore(store, liveChromeRows);
  const todos = useStore(store, (s) => s.todos);
  // A key re-renders the composer alone while the draft surely fits its row; App only for the height.
  useStore(controller.composer, (s) => composerShape(s.draft, s.cursor, columns));
  const { draft, cursor } = controller.composer.getState();
  const composerSide = useStore(controller.composerSide);
  const prompt = useStore(store, (s) => s.prompts[0]);
  const queued = useStore(store, (s) => Math.max(0, s.prompts.length - 1));
  const shell = useStore(store, (s) => s.shell);
  const pickerOpen = useStore(controller.sessions.picker.store, (s) => s !== undefined);
  const completion = useStore(controller.completion.store);
  const cleared = useStore(store, (s) => s.cleared ?? 0);
  const { stdout } = useStdout();
  useEffect(() => controller.onClearScreen(() => stdout.write(CLEAR_ALL)), [controller, stdout]);

  const panelRows = todoPanelRows(todos) + (setup ? setupReminderRows(columns) : 0) + (failure ? errorPanelRows(failure.message, failure.stderrTail, controller.logFile, columns) : 0);
  // The prompt (with its rule), its top margin, and the status line.
  const fixedRows = composerRows(draft, cursor, columns) + composerSideRows(composerSide, columns) + 2 + panelRows + SAFETY_ROWS + (phase === 'starting' ? 1 : 0);
  // The completion list sits under the prompt; on a short terminal it gets what is left after a minimal live turn.
  const listRows = prompt || pickerOpen ? 0 : Math.min(completionRows(completion), Math.max(0, rows - fixedRows - chromeRows - 2));
  const baseRows = fixedRows + listRows;
  const liveTextRows = Math.max(2, rows - baseRows - chromeRows);
  // A card replaces the live turn (which is waiting on it anyway); its top margin is one row.
  const cardRows = Math.max(8, rows - baseRows - 1);
  useAppKeys(controller, onExit, { width: columns, maxRows: cardRows }, echo);

  const placeholder = prompt
    ? 'answer the card above first; your draft is kept'
    : pickerOpen
      ? 'pick a session above, or Esc to go back'
      : phase === 'failed'
        ? 'the backend is not running'
        : phase !== 'ready'
          ? `${phase === 'starting' ? 'hermes is starting' : 'the backend is restarting'}; you can type already`
          : busy
            ? 'hermes is answering; Enter queues your next prompt · Esc interrupts'
            : shell
              ? 'the command is running; Enter queues your next prompt'
              : 'Ask hermes anything · !cmd runs a shell command';

  return (
    <>
      <Transcript store={store} width={columns} generation={reprints + cleared} />
      <Box flexDirection="column" width={columns}>
        {phase === 'starting' ? <Text dimColor>⚕ hermes is starting…</Text> : null}
        {prompt ? (
          <Box marginTop={1}>
            {prompt.kind === 'approval' ? (
              <ApprovalCard prompt={prompt} queued={queued} width={columns} maxRows={cardRows} />
            ) : (
              <ClarifyCard prompt={prompt} queued={queued} width={columns} maxRows={cardRows} />
            )}
          </Box>
        ) : pickerOpen ? (
          <Box marginTop={1}>
            <SessionPicker store={controller.sessions.picker.store} width={columns} maxRows={cardRows} />
          </Box>
        ) : (
          <LiveTurn store={store} width={columns} maxRows={liveTextRows} />
        )}
        {todoPanelVisible(todos) ? <TodoPanel todos={todos} width={columns} /> : null}
        {failure ? <BackendErrorPanel message={failure.message} stderrTail={failure.stderrTail} logFile={controller.logFile} width={columns} /> : null}
        <Box marginTop={1} flexDirection="column">
          {setup ? <SetupReminder width={columns} /> : null}
          <Composer store={controller.composer} side={controller.composerSide} busy={busy || Boolean(shell) || phase !== 'ready' || Boolean(prompt)} placeholder={placeholder} width={columns} focused={!prompt && !pickerOpen} terminalCursor={Boolean(stdout.isTTY)} onDrawn={echo?.composerDrawn} />
          {listRows > 0 ? <CompletionList store={controller.completion.store} width={columns} maxRows={listRows} /> : null}
        </Box>
        <StatusLine store={store} width={columns} />
      </Box>
    </>
  );
}
