/** What an agent session reports; rpc-server forwards these as protocol events. */
import type { SessionInfo } from '../contract/sessionInfo.ts';

export type TurnStatus = 'complete' | 'interrupted' | 'error';

export interface SessionUsage {
  model: string;
  input: number;
  output: number;
  reasoning: number;
  total: number;
  calls: number;
  /** Tokens of the last prompt: how full the context window is. */
  context_used?: number;
  context_max?: number;
  context_percent?: number;
  cost_usd?: number;
}

export type AgentEvent =
  | { type: 'turn.start' }
  | { type: 'text.delta'; text: string }
  | { type: 'reasoning.delta'; text: string }
  | { type: 'tool.generating'; name: string }
  | { type: 'tool.start'; toolId: string; name: string; context: string }
  | { type: 'tool.progress'; toolId: string; name: string; preview: string }
  | {
      type: 'tool.complete';
      toolId: string;
      name: string;
      durationS: number;
      result: string;
      error?: string;
      /** The approval gate refused the call; the tool did not run. */
      blocked?: boolean;
      /** The turn was stopped while the tool ran (the user, or hermes stopping): `result` is what it had by then. */
      interrupted?: boolean;
      inlineDiff?: string;
    }
  | { type: 'todo.updated'; todos: { id: string; content: string; status: string }[]; revision: number }
  | { type: 'usage'; usage: SessionUsage }
  | { type: 'title'; title: string }
  /** The session service changed the session: its current truth, in the wire shape. */
  | { type: 'session.info'; payload: SessionInfo }
  /** Progress the user should see outside the reply: retries, compression. */
  | { type: 'status'; kind: 'status' | 'warn' | 'error' | 'compressing' | 'compacted'; text: string }
  | {
      type: 'turn.complete';
      text: string;
      status: TurnStatus;
      reasoning?: string;
      error?: string;
      usage: SessionUsage;
    };

export type AgentEventSink = (event: AgentEvent) => void;
