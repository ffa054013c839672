/** The TUI's view state: what the screen shows, derived from backend events and local actions. */
import type {
  ApprovalChoice,
  ApprovalFinding,
  CommandResult,
  ConfigProblemInfo,
  HermesEvent,
  RequestCancelPayload,
  ResultOf,
  ServerRequestMap,
  SessionInfo,
  SessionOpenResult,
  TurnStatus,
  Usage,
} from '@hermes/rpc-server/protocol';
import { DEFAULT_DETAILS, type DetailsModes } from '../details/detailsMode.ts';
import type { ParagraphScan } from './paragraphSplit.ts';

export type TodoItem = Extract<HermesEvent, { type: 'todo.updated' }>['payload']['todos'][number];

/** `blocked`: the approval gate (or a hook) refused the call, so the tool never ran. */
export type ToolStatus = 'running' | 'done' | 'failed' | 'blocked' | 'interrupted';

export interface ToolCallView {
  toolId: string;
  name: string;
  context: string;
  status: ToolStatus;
  durationS?: number;
  summary?: string;
  error?: string;
  /** The latest progress preview of a running tool. */
  preview?: string;
  /** The unified diff of the file change a finished tool made. */
  diff?: string;
  /** What a finished tool returned, shown when tool details are expanded. */
  output?: string;
}

export type ApprovalRequest = ServerRequestMap['approval']['params'];
export type ClarifyRequest = ServerRequestMap['clarify']['params'];

/**
 * A question from the backend waiting for the user. `id` is the JSON-RPC id of the backend's request
 * (`srq-…`), which `request.cancel` names when it withdraws the question. The other fields are the
 * card's own state (selection, typed text).
 */
export type PendingPrompt =
  /** `findings`: the request's, each one checked; `pager`: set while the card shows the whole command. */
  | {
      kind: 'approval';
      id: string;
      request: ApprovalRequest;
      findings: ApprovalFinding[];
      choices: ApprovalChoice[];
      selected: number;
      pager?: { top: number };
    }
  | { kind: 'clarify'; id: string; request: ClarifyRequest; choices: string[]; selected: number; text: string; cursor: number };

export type NoticeLevel = 'info' | 'warn' | 'error';

/** A finished line of the transcript. Finished items never change: they are printed once. */
export type TranscriptItem =
  | { kind: 'header'; id: number; info: SessionInfo }
  | { kind: 'user'; id: number; text: string }
  /**
   * A piece of an assistant reply. Long replies are committed paragraph by paragraph, and text before
   * a tool call is committed when the tool starts; `continued` marks every piece but a reply's first.
   * `status` is set on the last piece of a reply that did not complete.
   */
  | { kind: 'assistant'; id: number; text: string; continued: boolean; status?: Exclude<TurnStatus, 'complete'>; error?: string }
  | { kind: 'tool'; id: number; tool: ToolCallView }
  /** A printed tool row's output, shown afterwards on request (Ctrl+O): the row itself is in the scrollback for good. */
  | { kind: 'toolOutput'; id: number; name: string; context: string; output: string }
  /** How to configure a model, printed once when the session has none; `title` says why when the config is at fault. */
  | { kind: 'setup'; id: number; hint: string; title?: string }
  /** Mistakes in config.yaml that hermes runs on despite (a model answers), printed once. */
  | { kind: 'config'; id: number; problems: ConfigProblemInfo[] }
  /** A `!cmd` the user ran, with what it printed (`code` 126 with a `BLOCKED:` stderr: the gate refused it). */
  | { kind: 'shell'; id: number; command: string; stdout: string; stderr: string; code: number }
  | { kind: 'notice'; id: number; level: NoticeLevel; text: string }
  /** A `/command` the backend ran: its output (multi-line), a warning, or why it was refused. */
  | { kind: 'command'; id: number; command: string; output?: string; warning?: string; error?: string };

/** The turn being streamed: everything here is still changing. */
export interface LiveTurn {
  /**
   * Assistant text not yet committed to the transcript: all of it, or, once it grew long (a code block
   * still open), its last piece (liveText.ts).
   */
  text: string;
  /** The uncommitted text before `text`, in pieces, oldest first (liveText.ts); absent while short. */
  earlier?: readonly string[];
  reasoning: string;
  tools: ToolCallView[];
  /** The tool whose arguments the model is still writing. */
  generating?: string;
  /** Some text of this reply is already in the transcript. */
  committed: boolean;
  /** Some `message.delta` arrived in this turn. */
  sawDelta: boolean;
  /** How far `text` has been read for finished paragraphs (none read yet when absent). */
  scan?: ParagraphScan;
}

/** `restarting`: the backend died after startup and a new one is being brought up with the same session. */
export type Phase = 'starting' | 'ready' | 'restarting' | 'failed';

export interface ViewState {
  phase: Phase;
  /** Why the backend is unusable (startup failure or exit), with what it printed last. */
  failure?: { message: string; stderrTail: string[] };
  sessionId?: string;
  info?: SessionInfo;
  usage?: Usage;
  title?: string;
  transcript: TranscriptItem[];
  nextId: number;
  live?: LiveTurn;
  busy: boolean;
  interrupting: boolean;
  status: string;
  /** Set while no usable model is configured: the backend's hint on how to configure one. */
  setup?: { hint: string };
  /** The config problems already printed (their text), so a new session does not repeat them. */
  configShown?: string;
  exitArmed: boolean;
  /** Questions from the backend, oldest first; the first one's card is on screen. */
  prompts: PendingPrompt[];
  /** The `!cmd` running now (one at a time). */
  shell?: { command: string };
  /**
   * `/commands` sent to the backend and not yet answered, oldest first. One may hold the session's running
   * slot for a while (`/compress`): hermes is working then, and Ctrl+C interrupts it.
   */
  commands?: readonly string[];
  /** Times `/clear` wiped the screen: the transcript starts again from the new session's header. */
  cleared?: number;
  /** Stored messages of this session before the first one in the transcript: a resumed session's end was loaded (`/transcript` reads them). */
  earlier?: number;
  /** How much reasoning and tool output is shown (`/details`). */
  details: DetailsModes;
  /** The session's todo list, newest `todo.updated`; shown as a panel while any item is open. */
  todos?: TodoItem[];
}

/** Things the TUI itself does that change the view (backend events are the other input). */
export type LocalAction =
  /**
   * `how` defaults to `created`; a resumed session's history is printed, a branch's is on screen already.
   * `clear` (`/clear`): the screen was wiped, so the transcript holds only what follows.
   */
  | { type: 'local.sessionOpened'; result: SessionOpenResult; how?: 'created' | 'resumed' | 'branched'; clear?: boolean }
  | { type: 'local.submitted'; text: string }
  | { type: 'local.submitFailed'; message: string; code?: number }
  /** Ctrl+C sent `session.interrupt`: for the running turn, or for a `/command` holding the session (`/compress`). */
  | { type: 'local.interruptSent' }
  /** An interrupt the backend could not act on: end the turn locally so the composer works again. */
  | { type: 'local.turnAbandoned'; reason: string }
  | { type: 'local.notice'; level: NoticeLevel; text: string }
  | { type: 'local.status'; text: string }
  | { type: 'local.backendFailed'; message: string; stderrTail: string[] }
  /** The backend died after startup; the controller is restarting it. */
  | { type: 'local.backendLost' }
  /** A restarted backend resumed the stored session; `cause` is how the old one ended (`exit signal SIGKILL`). */
  | { type: 'local.backendRestarted'; result: SessionOpenResult; cause: string }
  | { type: 'local.exitArmed'; armed: boolean }
  | { type: 'local.promptOpened'; prompt: PendingPrompt }
  /** The card's selection or typed text changed. */
  | { type: 'local.promptChanged'; prompt: PendingPrompt }
  /** The user answered; `record` is the line kept in the transcript. */
  | { type: 'local.promptAnswered'; id: string; record: string }
  /**
   * A question went away before the user answered: the backend (or the connection: `cancelled`) withdrew
   * it, or the TUI is `exiting` (declined without a word).
   */
  | { type: 'local.promptWithdrawn'; id: string; reason: RequestCancelPayload['reason'] | 'cancelled' | 'exiting' }
  /** A `/command` went to the backend's `slash.exec`; `local.commandRan` follows once it answers. */
  | { type: 'local.commandSent'; command: string }
  /** A `/command` answered (or refused: `error`) by the backend's `slash.exec`. */
  | ({ type: 'local.commandRan'; command: string; error?: string } & Pick<CommandResult, 'output' | 'warning'>)
  | { type: 'local.shellStarted'; command: string }
  | ({ type: 'local.shellFinished'; command: string } & ResultOf<'shell.exec'>)
  /** `shell.exec` itself failed (not the command): nothing ran that we know of. */
  | { type: 'local.shellFailed'; command: string; message: string }
  /** `config.set yolo` answered; `warning` is the backend's word on what yolo means (the session's yolo itself comes in `session.info`). */
  | { type: 'local.yoloChanged'; value: boolean; warning?: string }
  /** `/details` changed what is shown of reasoning and tool output. */
  | { type: 'local.detailsSet'; details: DetailsModes }
  /** Ctrl+O: tool output expanded (the newest tool's printed again, with it) or collapsed again. */
  | { type: 'local.toolDetailsToggled' };

export type ViewInput = HermesEvent | LocalAction;

export function initialViewState(): ViewState {
  return {
    phase: 'starting',
    transcript: [],
    nextId: 1,
    busy: false,
    interrupting: false,
    status: 'starting the backend…',
    exitArmed: false,
    prompts: [],
    details: DEFAULT_DETAILS,
  };
}

/** Why prompts and commands cannot go to the backend in `phase` (anything but `ready`), in words for the screen. */
export function notReadyReason(phase: Phase): string {
  if (phase === 'failed') return 'the backend is not running';
  if (phase === 'restarting') return 'the backend is restarting — your draft is kept';
  return 'still starting — try again in a moment';
}
