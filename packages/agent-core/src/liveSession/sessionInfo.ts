/**
 * What the session service needs to build `session.info` (the contract's SessionInfo, in its wire
 * shape) besides what the session itself knows.
 */
import type { ConfigProblemInfo } from '../contract/sessionInfo.ts';


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
  configProblems(): ConfigProblemInfo[];
  /** A change made through this session applies to every session (the approval mode): the others should report it too. */
  sharedChange?(): void;
}
