/**
 * `session.info`: what a live session is now, in its wire shape (snake_case). Built by the session
 * service after every change it makes; rpc-server only adds the envelope.
 */
import type { SessionUsage } from '../agent/events.ts';
import type { ConfigProblemKind } from '../config/loadConfig.ts';

/** The approval modes that exist (config.yaml `approvals.mode`, `/approvals <mode>`). */
export const APPROVAL_MODES = ['manual', 'off'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

export interface SessionInfoPayload {
  model: string;
  provider: string;
  demo?: boolean;
  setup_hint?: string;
  config_problems?: { kind: ConfigProblemKind; text: string }[];
  base_url?: string;
  cwd: string;
  title: string | null;
  stored_session_id: string;
  toolsets: Record<string, string[]>;
  approval_mode: ApprovalMode;
  yolo: boolean;
  plugin_count: number;
  usage: SessionUsage;
  version: string;
}

/**
 * What a session cannot know about the process it runs in; the front end supplies it. Read at each
 * `session.info`, so a plugin reload or a new config problem shows up in the next one.
 */
export interface SessionFacts {
  version: string;
  /** The session talks to the scripted demo model. */
  demo: boolean;
  pluginCount(): number;
  /** Enabled tools by toolset (plugins' included). */
  toolsets(): Record<string, string[]>;
  /** config.yaml / .env mistakes hermes runs on despite, one line each, with their kind. */
  configProblems(): { kind: ConfigProblemKind; text: string }[];
}
