/** The pure reducer from backend events and local actions to the view state. */
import { ErrorCode, type HermesEvent, type SessionInfo } from '@hermes/rpc-server/protocol';
import { configHeadline } from './configProblems.ts';
import { itemsFromHistory, type NewItem } from './historyItems.ts';
import { liveReader, wholeLiveText, withDelta } from './liveText.ts';
import { scanParagraphs } from './paragraphSplit.ts';
import { changePrompt, openPrompt, removePrompt, withdrawnNotice } from './promptQueue.ts';
import type { LiveTurn, LocalAction, NoticeLevel, ToolCallView, TranscriptItem, ViewInput, ViewState } from './viewState.ts';

/** Reasoning is shown only as a hint of what the model is thinking; keep just its tail. */
const REASONING_TAIL = 2_000;

function append(state: ViewState, ...items: NewItem[]): ViewState {
  if (items.length === 0) return state;
  let nextId = state.nextId;
  const added = items.map((item) => ({ ...item, id: nextId++ }) as TranscriptItem);
  return { ...state, transcript: [...state.transcript, ...added], nextId };
}

function notice(state: ViewState, level: NoticeLevel, text: string): ViewState {
  return append(state, { kind: 'notice', level, text });
}

function emptyLive(): LiveTurn {
  return { text: '', reasoning: '', tools: [], committed: false, sawDelta: false };
}

/** Moves the live text (all of it, or its finished paragraphs) into the transcript. */
function commitLiveText(state: ViewState, live: LiveTurn, mode: 'all' | 'paragraphs'): [ViewState, LiveTurn] {
  if (mode === 'paragraphs') {
    // Reads only the lines that arrived since the last delta: the live text can be megabytes long.
    const { split, scan } = scanParagraphs(liveReader(live), live.scan);
    if (!split) return [state, { ...live, scan }];
    const next = append(state, { kind: 'assistant', text: split.head, continued: live.committed });
    return [next, { ...live, text: split.rest, earlier: undefined, scan, committed: true }];
  }
  const text = wholeLiveText(live).trim();
  if (!text) return [state, { ...live, text: '', earlier: undefined, scan: undefined }];
  const next = append(state, { kind: 'assistant', text, continued: live.committed });
  return [next, { ...live, text: '', earlier: undefined, scan: undefined, committed: true }];
}

/**
 * Applies the session's setup hint and config problems: shown in the transcript when they first
 * appear or change. Without a model the hint carries the config problems (they may be why), and its
 * title then says the config is at fault rather than only that no model is configured.
 */
function withSetup(state: ViewState, info: SessionInfo): ViewState {
  const hint = info.setup_hint?.trim();
  const problems = info.config_problems ?? [];
  if (!hint) {
    const cleared = state.setup ? { ...state, setup: undefined } : state;
    const shown = problems.map((p) => p.text).join('\n');
    if (!shown || cleared.configShown === shown) return cleared;
    return append({ ...cleared, configShown: shown }, { kind: 'config', problems });
  }
  if (state.setup?.hint === hint) return state;
  const title = problems.length ? `${configHeadline(problems)} · no model is configured, so hermes cannot answer yet` : undefined;
  return append({ ...state, setup: { hint } }, { kind: 'setup', hint, ...(title ? { title } : {}) });
}

function withdraw(state: ViewState, id: string, reason: string): ViewState {
  const [next, prompt] = removePrompt(state, id);
  const text = prompt && withdrawnNotice(prompt, reason);
  return text ? notice(next, 'warn', text) : next;
}

function endTurn(state: ViewState): ViewState {
  return { ...state, live: undefined, busy: false, interrupting: false, status: '' };
}

/**
 * The backend died: what the user saw of the turn stays, marked interrupted as an interrupt would
 * leave it (a running tool's card says interrupted, never ✓); its open questions are withdrawn
 * (nobody is left to answer them) and the `!cmd` it ran is over.
 */
function keepWhatWasShown(state: ViewState): ViewState {
  const interrupted: HermesEvent = { type: 'message.complete', session_id: state.sessionId, payload: { text: '', status: 'interrupted' } };
  const finished = state.busy ? reduceEvent(state, interrupted) : endTurn(state);
  const withdrawn = state.prompts.reduce((next, prompt) => withdraw(next, prompt.id, 'backend_lost'), finished);
  return { ...withdrawn, prompts: [], shell: undefined };
}

/**
 * The restarted backend has the same stored session open again. Its history is what the transcript
 * already shows (printed once, it stays in the scrollback), so only the new live id and info are
 * taken, with one line saying what happened.
 */
function restoreSession(state: ViewState, action: Extract<LocalAction, { type: 'local.backendRestarted' }>): ViewState {
  const { result, cause } = action;
  const restored: ViewState = {
    ...endTurn(state),
    phase: 'ready',
    failure: undefined,
    sessionId: result.session_id,
    info: result.info,
    usage: result.info.usage ?? state.usage,
    title: result.info.title ?? state.title,
    prompts: [],
    shell: undefined,
  };
  return withSetup(notice(restored, 'warn', `backend restarted (${cause}) — session resumed`), result.info);
}

/** A session is now the one on screen: a fresh one, a resumed one (its history printed), or a branch. */
function openSession(state: ViewState, action: Extract<LocalAction, { type: 'local.sessionOpened' }>): ViewState {
  const { result, how = 'created', clear = false } = action;
  const opened: ViewState = {
    ...endTurn(state),
    ...(clear ? { transcript: [], cleared: (state.cleared ?? 0) + 1 } : {}),
    phase: 'ready',
    sessionId: result.session_id,
    info: result.info,
    usage: result.info.usage,
    title: result.info.title ?? undefined,
    prompts: [],
    shell: undefined,
    setup: undefined,
    // Another session's todo list is not this one's; its own arrives with its next `todo.updated`.
    todos: undefined,
    // A branch copies every message, so the ones before the transcript's first are still unloaded.
    earlier: how === 'resumed' ? result.message_count - result.messages.length : how === 'branched' ? state.earlier : undefined,
  };
  const label = result.info.title ? `"${result.info.title}"` : result.stored_session_id;
  const items: NewItem[] =
    how === 'branched'
      ? [{ kind: 'notice', level: 'info', text: `branched: now in ${label}, a copy of the ${result.message_count} messages above; the original session is unchanged` }]
      : [{ kind: 'header', info: result.info }];
  if (how === 'resumed') {
    items.push({ kind: 'notice', level: 'info', text: `resumed ${label} · ${result.message_count} messages` });
    items.push(...itemsFromHistory(result.messages));
  }
  return withSetup(append(opened, ...items), result.info);
}

/** The `!cmd` answered: what was said while it ran ("still running", "interrupting…") is over unless something else runs. */
function shellOver(state: ViewState): ViewState {
  const ended = { ...state, shell: undefined };
  return state.busy || state.commands?.length ? ended : { ...ended, status: '', interrupting: false };
}

function reduceLocal(state: ViewState, action: Extract<ViewInput, { type: `local.${string}` }>): ViewState {
  switch (action.type) {
    case 'local.sessionOpened':
      return openSession(state, action);
    case 'local.submitted':
      return append(
        { ...state, busy: true, interrupting: false, live: emptyLive(), status: 'waiting for the model…' },
        { kind: 'user', text: action.text },
      );
    case 'local.submitFailed':
      // The setup instructions are already on screen; repeating them after every prompt would bury the transcript.
      if (state.setup && action.code === ErrorCode.AgentUnavailable)
        return notice(endTurn(state), 'error', 'Not sent: no model is configured yet (see the setup instructions above).');
      return notice(endTurn(state), 'error', action.message);
    case 'local.interruptSent':
      return state.busy || state.commands?.length || state.shell ? { ...state, interrupting: true, status: 'interrupting…' } : state;
    case 'local.turnAbandoned': {
      if (!state.busy) return state;
      const live = state.live ?? emptyLive();
      const [committed] = commitLiveText(state, live, 'all');
      return notice(endTurn(committed), 'warn', action.reason);
    }
    case 'local.notice':
      return notice(state, action.level, action.text);
    case 'local.status':
      return { ...state, status: action.text };
    case 'local.backendLost':
      if (state.phase !== 'ready') return state;
      return { ...keepWhatWasShown(state), phase: 'restarting', status: 'the backend stopped — restarting it…' };
    case 'local.backendRestarted':
      return restoreSession(state, action);
    case 'local.backendFailed':
      return {
        // Nobody is left to answer: the cards go, and the prompt broker declines their requests with them.
        ...keepWhatWasShown(state),
        phase: 'failed',
        failure: { message: action.message, stderrTail: action.stderrTail },
        status: '',
      };
    case 'local.exitArmed':
      return { ...state, exitArmed: action.armed };
    case 'local.promptOpened':
      return openPrompt(state, action.prompt);
    case 'local.promptChanged':
      return changePrompt(state, action.prompt);
    case 'local.promptAnswered': {
      const [next, prompt] = removePrompt(state, action.id);
      return prompt ? notice(next, 'info', action.record) : next;
    }
    case 'local.promptWithdrawn':
      return withdraw(state, action.id, action.reason);
    case 'local.commandSent':
      return { ...state, commands: [...(state.commands ?? []), action.command] };
    case 'local.commandRan': {
      const { command, output, warning, error } = action;
      const index = state.commands?.indexOf(command) ?? -1;
      const commands = index < 0 ? state.commands : state.commands!.filter((_, i) => i !== index);
      const ran = { ...state, commands };
      // Once nothing runs, what the command said meanwhile ("compressing…") is over: its outcome is in the transcript.
      const idle = !state.busy && !commands?.length ? { ...ran, status: '', interrupting: false } : ran;
      return append(idle, { kind: 'command', command, ...(output ? { output } : {}), ...(warning ? { warning } : {}), ...(error ? { error } : {}) });
    }
    case 'local.shellStarted':
      // Echoed as typed, so the approval card and the output that follow have their cause above them.
      return append({ ...state, shell: { command: action.command } }, { kind: 'user', text: `!${action.command}` });
    case 'local.shellFinished': {
      const { command, stdout, stderr, code } = action;
      return append(shellOver(state), { kind: 'shell', command, stdout, stderr, code });
    }
    case 'local.shellFailed':
      return notice(shellOver(state), 'error', `!${action.command} failed: ${action.message}`);
    case 'local.yoloChanged':
      // Only says what yolo now means: the marker follows `session.info`, which the backend sends with every change.
      if (!action.value) return notice(state, 'info', 'yolo is off: dangerous commands ask for approval again.');
      return notice(state, 'warn', action.warning ?? 'yolo is on: dangerous commands run without asking in this session.');
    case 'local.detailsSet':
      return { ...state, details: action.details };
    case 'local.toolDetailsToggled':
      return toggleToolDetails(state);
  }
}

/**
 * Ctrl+O on the newest tool row: expanding prints that tool's output under the transcript (the row
 * itself cannot be repainted) and expands the rows that follow; pressed again, back to collapsed.
 */
function toggleToolDetails(state: ViewState): ViewState {
  if (state.details.tools === 'expanded') return { ...state, details: { ...state.details, tools: 'collapsed' } };
  const expanded = { ...state, details: { ...state.details, tools: 'expanded' as const } };
  const newest = state.transcript.findLast((item) => item.kind === 'tool');
  if (newest?.kind !== 'tool') return expanded;
  const { name, context, output } = newest.tool;
  if (!output) return notice(expanded, 'info', `${name} returned no output`);
  return append(expanded, { kind: 'toolOutput', name, context, output });
}

function updateTool(live: LiveTurn, toolId: string, change: (tool: ToolCallView) => ToolCallView): LiveTurn {
  return { ...live, tools: live.tools.map((tool) => (tool.toolId === toolId ? change(tool) : tool)) };
}

function reduceEvent(state: ViewState, event: HermesEvent): ViewState {
  // Events of other sessions are not ours to show; gateway events carry no session.
  if (event.session_id && state.sessionId && event.session_id !== state.sessionId) return state;
  switch (event.type) {
    case 'gateway.ready':
      return state.phase === 'starting' ? { ...state, status: 'opening a session…' } : state;
    case 'session.info':
      return withSetup(
        { ...state, info: event.payload, usage: event.payload.usage ?? state.usage, title: event.payload.title ?? state.title },
        event.payload,
      );
    case 'session.usage':
      return { ...state, usage: event.payload };
    case 'session.title':
      return { ...state, title: event.payload.title };
    case 'message.start':
      return { ...state, busy: true, live: state.live ?? emptyLive(), status: '' };
    case 'message.delta': {
      if (!event.payload.text) return state;
      const live = state.live ?? emptyLive();
      // Separators between model iterations arrive as leading newlines; a reply piece never starts with them.
      const delta = live.text ? event.payload.text : event.payload.text.replace(/^\n+/, '');
      const grown = { ...live, ...withDelta(live, delta), sawDelta: true, generating: undefined };
      const [next, rest] = commitLiveText(state, grown, 'paragraphs');
      return { ...next, busy: true, live: rest, status: '' };
    }
    case 'reasoning.delta': {
      if (!event.payload.text) return state;
      const live = state.live ?? emptyLive();
      return { ...state, live: { ...live, reasoning: (live.reasoning + event.payload.text).slice(-REASONING_TAIL) } };
    }
    case 'tool.generating':
      return { ...state, live: { ...(state.live ?? emptyLive()), generating: event.payload.name } };
    case 'tool.start': {
      const [next, live] = commitLiveText(state, state.live ?? emptyLive(), 'all');
      const tool: ToolCallView = {
        toolId: event.payload.tool_id,
        name: event.payload.name,
        context: event.payload.context,
        status: 'running',
      };
      return { ...next, live: { ...live, generating: undefined, tools: [...live.tools, tool] } };
    }
    case 'tool.progress': {
      if (!state.live) return state;
      const { tool_id, preview } = event.payload;
      return { ...state, live: updateTool(state.live, tool_id, (tool) => ({ ...tool, preview })) };
    }
    case 'tool.complete': {
      const { tool_id, name, duration_s, summary, result, error, blocked, interrupted, inline_diff } = event.payload;
      const live = state.live ?? emptyLive();
      const started = live.tools.find((tool) => tool.toolId === tool_id);
      const finished: ToolCallView = {
        toolId: tool_id,
        name,
        context: started?.context ?? '',
        status: blocked ? 'blocked' : interrupted ? 'interrupted' : error ? 'failed' : 'done',
        durationS: duration_s,
        summary,
        error,
        diff: inline_diff?.trim() ? inline_diff : undefined,
        output: result?.trim() ? result : undefined,
      };
      const remaining = { ...live, tools: live.tools.filter((tool) => tool.toolId !== tool_id) };
      return append({ ...state, live: remaining }, { kind: 'tool', tool: finished });
    }
    case 'message.complete': {
      const payload = event.payload;
      const live = state.live ?? emptyLive();
      // Without deltas (a backend that does not stream), the final text is the whole reply.
      const text = (live.sawDelta ? wholeLiveText(live) : payload.text).trim();
      const status = payload.status !== 'complete' ? payload.status : undefined;
      const unfinished: NewItem[] = live.tools.map((tool) => ({ kind: 'tool', tool: { ...tool, status: 'interrupted' } }));
      const reply: NewItem[] =
        text || status ? [{ kind: 'assistant', text, continued: live.committed, status, error: payload.error }] : [];
      const done = append(endTurn(state), ...unfinished, ...reply);
      return payload.usage ? { ...done, usage: payload.usage } : done;
    }
    case 'status.update': {
      const { kind, text } = event.payload;
      const next = { ...state, status: text };
      if (kind === 'warn' || kind === 'error') return notice(next, kind, text);
      return next;
    }
    case 'notification.show': {
      const { level, text } = event.payload;
      if (level === 'warn' || level === 'error') return notice(state, level, text);
      return { ...state, status: text };
    }
    case 'error': {
      const message = event.payload.message.trim();
      if (!message) return state;
      // Without a model the backend reports the setup hint as an error too; it is on screen already.
      if (state.setup?.hint === message) return state;
      return notice(state, 'error', message);
    }
    case 'request.cancel':
      return withdraw(state, event.payload.id, event.payload.reason);
    case 'todo.updated':
      return { ...state, todos: event.payload.todos };
    case 'notification.clear':
      return state;
  }
}

export function reduce(state: ViewState, input: ViewInput): ViewState {
  if (input.type.startsWith('local.')) return reduceLocal(state, input as Extract<ViewInput, { type: `local.${string}` }>);
  return reduceEvent(state, input as HermesEvent);
}

export function reduceAll(state: ViewState, inputs: readonly ViewInput[]): ViewState {
  return inputs.reduce(reduce, state);
}
