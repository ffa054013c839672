/** Shapes shared by methods and events. Those agent-core shares are in its contract, re-exported here. */
import type { TurnStatus } from '@hermes/agent-core/contract';

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
