import type { ApprovalChoice, ApprovalFinding, ApprovalLevel, CommandResult, SessionInfo, Usage } from '@hermes/agent-core/contract';
import type {
  CommandDescriptor,
  CompletionResult,
  PluginDescriptor,
  SearchHit,
  SessionSummary,
  ToolsetDescriptor,
  TranscriptMessage,
} from './types.ts';

/** Client → backend request names (PROTOCOL.md, "Methods"). */
/** A stored session as `session.history` describes one it read without opening. */
export interface StoredSessionInfo {
  id: string;
  title: string | null;
  model: string | null;
  provider: string | null;
  cwd: string | null;
  started_at: number;
  source: string;
}

export const Method = {
  SessionCreate: 'session.create',
  SessionResume: 'session.resume',
  SessionList: 'session.list',
  SessionSearch: 'session.search',
  SessionHistory: 'session.history',
  SessionInterrupt: 'session.interrupt',
  SessionClose: 'session.close',
  SessionDelete: 'session.delete',
  SessionTitle: 'session.title',
  SessionBranch: 'session.branch',
  SessionUndo: 'session.undo',
  SessionUsage: 'session.usage',
  SessionCompress: 'session.compress',
  PromptSubmit: 'prompt.submit',
  CommandsCatalog: 'commands.catalog',
  CompleteSlash: 'complete.slash',
  CompletePath: 'complete.path',
  SlashExec: 'slash.exec',
  ProcessStop: 'process.stop',
  ConfigGet: 'config.get',
  ConfigSet: 'config.set',
  ModelOptions: 'model.options',
  ToolsList: 'tools.list',
  PluginsList: 'plugins.list',
  ShellExec: 'shell.exec',
  CliExec: 'cli.exec',
  ApprovalRespond: 'approval.respond',
  ClarifyRespond: 'clarify.respond',
  ApprovalsCheck: 'approvals.check',
} as const;

export type Method = (typeof Method)[keyof typeof Method];

export interface SessionCreateParams {
  cols?: number;
  cwd?: string;
  title?: string;
  model?: string;
  provider?: string;
}

/** The result of `session.create`, `session.resume` and `session.branch`. */
export interface SessionOpenResult {
  session_id: string;
  stored_session_id: string;
  message_count: number;
  messages: TranscriptMessage[];
  info: SessionInfo;
}

export interface SessionIdParams {
  session_id: string;
}

/** `approvals.check`: exactly one of `command` and `write_path`; `cwd` defaults to the backend's. */
export interface ApprovalsCheckParams {
  command?: string;
  /** A file written by write_file/patch: absolute, or relative to `cwd`. */
  write_path?: string;
  cwd?: string;
}

/** The gate's verdict: the most severe level over all findings, and every finding. */
export interface ApprovalsCheckResult {
  level: ApprovalLevel;
  findings: ApprovalFinding[];
}

export interface MethodMap {
  'session.create': { params: SessionCreateParams; result: SessionOpenResult };
  /** Of a session already open here: the open one is closed (its id then answers 4001), a new id is returned. */
  'session.resume': { params: { session_id: string; cols?: number }; result: SessionOpenResult };
  'session.list': { params: { limit?: number; query?: string }; result: { sessions: SessionSummary[] } };
  'session.search': { params: { query: string; limit?: number }; result: { hits: SearchHit[] } };
  /**
   * A live session's messages; for a stored id or exact title that is not open here, the stored
   * messages read without opening (nothing is repaired or written) and `stored` describing it.
   */
  'session.history': { params: SessionIdParams; result: { count: number; messages: TranscriptMessage[]; stored?: StoredSessionInfo } };
  'session.interrupt': { params: SessionIdParams; result: { status: 'interrupted' | 'not_interrupted' } };
  /** Stops a running turn; open questions get `request.cancel` (`session_closed`). */
  'session.close': { params: SessionIdParams; result: { closed: boolean } };
  /** Deletes a stored session (by stored id or exact title) that is not open. */
  'session.delete': { params: SessionIdParams; result: { deleted: boolean } };
  'session.title': { params: { session_id: string; title?: string }; result: { title: string | null } };
  'session.branch': { params: { session_id: string; name?: string }; result: SessionOpenResult };
  'session.undo': { params: SessionIdParams; result: { removed: number; text: string } };
  'session.usage': { params: SessionIdParams; result: Usage };
  'session.compress': {
    params: { session_id: string; focus_topic?: string };
    result: { removed: number; before_tokens: number; after_tokens: number; summary: string };
  };
  /** A turn already running answers 4009 (nothing is queued); `queued` is reserved and never sent. */
  'prompt.submit': { params: { session_id: string; text: string }; result: { status: 'streaming' | 'queued' } };
  'commands.catalog': { params: { session_id?: string }; result: { commands: CommandDescriptor[] } };
  'complete.slash': { params: { text: string; session_id?: string }; result: CompletionResult };
  'complete.path': { params: { word: string; cwd?: string }; result: CompletionResult };
  'slash.exec': {
    params: { session_id: string; command: string };
    result: CommandResult;
  };
  'process.stop': { params: { session_id?: string }; result: { killed: number } };
  'config.get': { params: { key: string }; result: { value: unknown } };
  'config.set': {
    params: { key: string; value: unknown; session_id?: string };
    result: { key: string; value: unknown; warning?: string };
  };
  'model.options': {
    params: Record<string, never>;
    result: { current: { provider: string; model: string }; providers: { id: string; models: string[]; configured: boolean }[] };
  };
  'tools.list': { params: { session_id?: string }; result: { toolsets: ToolsetDescriptor[] } };
  'plugins.list': { params: Record<string, never>; result: { plugins: PluginDescriptor[] } };
  'shell.exec': { params: { session_id?: string; command: string }; result: { stdout: string; stderr: string; code: number } };
  'cli.exec': { params: { argv: string[] }; result: { code: number; output: string } };
  'approval.respond': {
    params: { session_id: string; request_id: string; choice: ApprovalChoice };
    result: { resolved: number };
  };
  'clarify.respond': { params: { request_id: string; answer: string }; result: { resolved: number } };
  /** How the approval gate judges a command or file write; needs no session, runs nothing. */
  'approvals.check': { params: ApprovalsCheckParams; result: ApprovalsCheckResult };
}

export type ParamsOf<M extends Method> = MethodMap[M]['params'];
export type ResultOf<M extends Method> = MethodMap[M]['result'];

/** Backend → client request names (PROTOCOL.md, "Prompts"). Their ids start with `srq-`. */
export const ServerRequest = {
  Approval: 'approval',
  Clarify: 'clarify',
  Secret: 'secret',
} as const;

export type ServerRequest = (typeof ServerRequest)[keyof typeof ServerRequest];

export const SERVER_REQUEST_ID_PREFIX = 'srq-';

export interface ServerRequestMap {
  approval: {
    params: {
      session_id: string;
      tool_name: string;
      /** The command; for file tools `write <path>` or `read <path>` (reading `$HERMES_HOME/.env` asks). */
      command: string;
      /** One line summing up the findings. */
      description: string;
      /** Every reason the command needs approval, most severe first; a client shows them all. */
      findings: ApprovalFinding[];
      choices: ApprovalChoice[];
      diff?: string;
      /** The request's own id, repeated for clients that answer through `approval.respond`. */
      request_id?: string;
    };
    result: { choice: ApprovalChoice };
  };
  clarify: {
    params: { session_id: string; question: string; choices?: string[]; request_id?: string };
    result: { answer: string };
  };
  secret: { params: { session_id: string; env_var: string; prompt: string; request_id?: string }; result: { value: string } };
}
