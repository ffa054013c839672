/**
 * Routes keys to the app: to the card of a pending backend question if there is one, else to the
 * session picker when it is open, else an open Ctrl+R search, Ctrl+C by its rules, the session keys
 * (Shift+Tab, Ctrl+X), the slash-command completion list when it is open, the history keys (↑/↓, Ctrl+R,
 * Esc), and the composer.
 */
import { useEffect, useRef } from 'react';
import { editInExternalEditor } from '../app/externalEditor.ts';
import type { SessionController } from '../app/sessionController.ts';
import { applyCompletionKey } from '../commands/slashCompletion.ts';
import { applyApprovalKey } from '../input/approvalKeys.ts';
import { applyClarifyKey } from '../input/clarifyKeys.ts';
import type { LocalEcho } from '../echo/localEcho.ts';
import { applyComposerKey } from '../input/composerKeys.ts';
import { EXIT_CONFIRM_MS, resolveCtrlC } from '../input/ctrlCAction.ts';
import { globalKeyAction } from '../input/globalKeys.ts';
import type { Key } from '../input/keyParser.ts';
import { expandPastes } from '../input/pastedText.ts';
import { commandViewLayout } from '../layout/cardLayout.ts';
import type { PendingPrompt } from '../state/viewState.ts';
import { useKeyboard } from './useKeyboard.ts';

/** Where a card is drawn: the approval card's command view scrolls by the rows it has. */
interface CardSize {
  width: number;
  maxRows: number;
}

/**
 * A key pressed while a card is shown. The card takes every key (Ctrl+C included: it declines the
 * card rather than interrupting or exiting) and the composer's draft is left alone.
 */
function applyCardKey(controller: SessionController, prompt: PendingPrompt, key: Key, size: CardSize): void {
  if (prompt.kind === 'approval') {
    const view = commandViewLayout({ ...prompt.request, findings: prompt.findings }, size.width, size.maxRows, prompt.pager?.top ?? 0);
    const { selected, pager, answer } = applyApprovalKey(prompt.choices, prompt, key, view);
    if (answer) controller.answerPrompt(prompt.id, answer === 'deny' ? undefined : { kind: 'approval', choice: answer });
    else if (selected !== prompt.selected || pager?.top !== prompt.pager?.top)
      controller.view.dispatch({ type: 'local.promptChanged', prompt: { ...prompt, selected, pager } });
    return;
  }
  const { answer, ...card } = applyClarifyKey(prompt.choices, prompt, key);
  if (answer !== undefined) controller.answerPrompt(prompt.id, answer ? { kind: 'clarify', answer } : undefined);
  else if (card.selected !== prompt.selected || card.text !== prompt.text || card.cursor !== prompt.cursor)
    controller.view.dispatch({ type: 'local.promptChanged', prompt: { ...prompt, ...card } });
}

/** `echo`, when given, shows a plain key typed into the composer before its frame is drawn (echo/). */
export function useAppKeys(controller: SessionController, onExit: () => void, cardSize: CardSize, echo?: LocalEcho): void {
  const disarmTimer = useRef<NodeJS.Timeout | undefined>(undefined);
  const size = useRef(cardSize);
  size.current = cardSize;

  useEffect(() => () => clearTimeout(disarmTimer.current), []);
  useEffect(() => controller.onExitRequest(onExit), [controller, onExit]);

  const setArmed = (armed: boolean) => {
    clearTimeout(disarmTimer.current);
    if (controller.view.store.getState().exitArmed !== armed) controller.view.dispatch({ type: 'local.exitArmed', armed });
    if (armed) disarmTimer.current = setTimeout(() => setArmed(false), EXIT_CONFIRM_MS);
  };

  const onCtrlC = () => {
    const view = controller.view.store.getState();
    const { draft } = controller.composer.getState();
    // A command still running on the backend (`/compress`) or a `!cmd` is stopped like a turn.
    const busy = view.busy || (view.commands?.length ?? 0) > 0 || view.shell !== undefined;
    const action = resolveCtrlC({ draft, busy, interrupting: view.interrupting, exitArmed: view.exitArmed });
    switch (action) {
      case 'clear-draft':
        controller.composer.setState({ draft: '', cursor: 0 });
        setArmed(false);
        return;
      case 'interrupt':
        controller.interrupt();
        setArmed(false);
        return;
      case 'arm-exit':
        setArmed(true);
        return;
      case 'exit':
        setArmed(false);
        onExit();
    }
  };

  // Keys held until the command catalog lands (a burst typed right at startup), then handled in order.
  const held = useRef<Key[] | undefined>(undefined);
  const onKeys = (keys: Key[]): void => {
    if (held.current) {
      held.current.push(...keys);
      return;
    }
    for (const [index, key] of keys.entries()) {
      const wait = controller.completion.holdFor(key);
      if (wait) {
        const queue = (held.current = keys.slice(index));
        void wait.then(() => {
          held.current = undefined;
          onKeys(queue);
        });
        return;
      }
      const view = controller.view.store.getState();
      // Read per key: the previous key may have answered a card and brought up the next one.
      const prompt = view.prompts[0];
      if (prompt) {
        if (controller.view.store.getState().exitArmed) setArmed(false);
        applyCardKey(controller, prompt, key, size.current);
        continue;
      }
      // The picker, like a card, takes every key while it is open (Esc and Ctrl+C close it).
      if (controller.sessions.picker.isOpen) {
        if (controller.view.store.getState().exitArmed) setArmed(false);
        controller.sessions.picker.key(key);
        continue;
      }
      // A Ctrl+R search takes every key (Ctrl+C closes it).
      if (controller.historyKeys.searching && controller.historyKeys.key(key)) continue;
      if (key.type === 'key' && key.ctrl && key.name === 'c') {
        onCtrlC();
        continue;
      }
      if (controller.view.store.getState().exitArmed) setArmed(false);
      const action = globalKeyAction(key);
      if (action === 'toggle-yolo') {
        controller.toggleYolo();
        continue;
      }
      if (action === 'toggle-tool-details') {
        controller.view.dispatch({ type: 'local.toolDetailsToggled' });
        continue;
      }
      if (action === 'open-sessions') {
        controller.sessions.picker.open();
        continue;
      }
      if (action === 'edit-draft') {
        const { draft, pastes } = controller.composer.getState();
        const edited = editInExternalEditor(expandPastes(draft, pastes));
        if (edited.ok) controller.composer.setState({ draft: edited.text, cursor: edited.text.length, pastes: [] });
        else controller.view.dispatch({ type: 'local.notice', level: 'error', text: edited.error });
        continue;
      }
      let current = controller.composer.getState();
      // The completion list takes ↑/↓, Tab, Esc and Enter (it runs the highlighted item) while open.
      const completion = controller.completion.store.getState();
      if (completion) {
        const outcome = applyCompletionKey(completion, current.draft, key);
        if (outcome.kind === 'select') controller.completion.select(outcome.state);
        else if (outcome.kind === 'apply') controller.composer.setState(outcome.composer);
        else if (outcome.kind === 'close') controller.completion.dismiss();
        // Enter goes on to the composer with the highlighted line as its draft, so it is sent as typed text is.
        if (outcome.kind === 'submit') current = { draft: outcome.text, cursor: outcome.text.length };
        else if (outcome.kind !== 'pass') continue;
      } else if (key.type === 'key' && key.name === 'tab' && !key.shift && controller.completion.deferTab()) {
        continue; // an `@path` answer is on its way: Tab applies it when it lands
      }
      // ↑/↓ history on the first/last line, Ctrl+R, Esc interrupts, Esc Esc clears the draft into history.
      if (controller.historyKeys.key(key)) continue;
      // Ctrl+D on an empty prompt leaves, as in a shell.
      if (key.type === 'key' && key.ctrl && key.name === 'd' && current.draft === '') {
        onExit();
        return;
      }
      // The prompt composer folds long pastes into a label (a clarify answer does not).
      const next = applyComposerKey({ ...current, pastes: current.pastes ?? [] }, key);
      if (next.submit !== undefined && !controller.submit(next.submit)) {
        // Not sent (still busy or starting): keep the text so nothing typed is lost.
        controller.composer.setState(current);
        continue;
      }
      if (next.draft !== current.draft || next.cursor !== current.cursor || next.pastes !== current.pastes) {
        // Echoed only when the frame that follows is this key's alone: the last key of its read, with no
        // list open and nothing else changed on its way here (an armed exit it disarmed, say).
        if (echo && index === keys.length - 1 && !completion && controller.view.store.getState() === view) echo.key(current, next, key);
        controller.composer.setState({ draft: next.draft, cursor: next.cursor, pastes: next.pastes ?? [] });
      }
    }
  };
  useKeyboard(onKeys);
}
