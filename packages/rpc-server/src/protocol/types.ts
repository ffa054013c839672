/** Shapes shared by methods and events. */

export type Role = 'user' | 'assistant' | 'system' | 'tool';

export interface ToolCallRecord {
  id: string;
  name: string;
  /** The arguments as the model wrote them (a JSON string). */
  arguments: string;
}

/** One message of a transcript as the client sees it. */
export interface TranscriptMessage {
  role: Role;
  text: string;
  timestamp?: number;
  row_id?: number;
  /** For role `tool`: the tool that produced this result. */
  name?: string;
  tool_call_id?: string;
  /** For role `assistant`: the tool calls it made. */
  tool_calls?: ToolCallRecord[];
  reasoning?: string;
  /** For an assistant reply that did not finish. */
  status?: TurnStatus;
}

export type TurnStatus = 'complete' | 'interrupted' | 'error';

export interface Usage {
  model: string;
  input: number;
  output: number;
  reasoning: number;
  total: number;
  calls: number;
  context_used?: number;
  context_max?: number;
  context_percent?: number;
  cost_usd?: number;
}

export type ApprovalMode = 'manual' | 'smart' | 'off';

/** A mistake in config.yaml or .env, found when the backend started. */
export interface ConfigProblemInfo {
  /**
   * `syntax`: the file is not valid YAML (or not a mapping) and is ignored as a whole; `value`: one
   * setting is wrong and its default applies; `unknown_key`: nothing reads the key (a typo?); `unreadable`.
   */
  kind: 'syntax' | 'value' | 'unknown_key' | 'unreadable';
  /** One line: the file (and line), what is wrong, and the fix. */
  text: string;
}

/** The `session.info` payload and the `info` field of session results. */
export interface SessionInfo {
  model: string;
  provider: string;
  /** True when this session talks to the scripted demo model, not a real one. */
  demo?: boolean;
  /** Set when no usable model is configured: what the user must do (config problems included, as they may be why). */
  setup_hint?: string;
  /** Mistakes in config.yaml or .env that hermes runs on despite; absent when there are none. */
  config_problems?: ConfigProblemInfo[];
  base_url?: string;
  cwd: string;
  title: string | null;
  stored_session_id: string;
  toolsets: Record<string, string[]>;
  approval_mode: ApprovalMode;
  yolo: boolean;
  plugin_count: number;
  usage: Usage;
  version: string;
}

export type ApprovalChoice = 'once' | 'session' | 'always' | 'deny';

export interface CompletionItem {
  text: string;
  display: string;
  meta: string;
}

export interface CompletionResult {
  items: CompletionItem[];
  replace_from: number;
}

export interface SessionSummary {
  id: string;
  title: string | null;
  preview: string;
  started_at: number;
  /** When the session last had a message (epoch seconds). */
  last_active?: number;
  message_count: number;
  source: string;
}

export interface SearchHit {
  session_id: string;
  title: string | null;
  role: Role;
  snippet: string;
  timestamp: number;
}

export interface CommandDescriptor {
  name: string;
  aliases: string[];
  description: string;
  category: string;
  args_hint: string;
  /** `builtin`, or the name of the plugin that registered it. */
  source: string;
}

export interface ToolsetDescriptor {
  name: string;
  description: string;
  enabled: boolean;
  tools: string[];
}

export interface PluginDescriptor {
  name: string;
  key: string;
  version: string;
  source: 'user' | 'project' | 'npm';
  enabled: boolean;
  tools: number;
  hooks: number;
  middleware: number;
  commands: number;
  error: string | null;
  /**
   * Only from a backend started with `--discover-plugins-only` (which imports no plugin): the counts
   * are those of the last start that loaded the plugin (`last_start`), or not known (`unknown`, all 0).
   */
  counts_from?: 'last_start' | 'unknown';
}

/** The approval gate's verdict on a command or file write. */
export type ApprovalLevel = 'safe' | 'dangerous' | 'hardline';

/**
 * One reason a command needs approval or may never run: `rule` the effect (`delete.recursive`, …),
 * `target` the class of thing it hits (`~/.ssh`, `$HERMES_HOME`, `/etc`, `home`, `working tree`, …),
 * `why` a sentence for a human naming the actual path or program.
 */
export interface ApprovalFinding {
  level: 'dangerous' | 'hardline';
  rule: string;
  target: string;
  why: string;
  /** The line of the command (1-based) holding what was found, when known: a client keeps it on screen. */
  line?: number;
}
