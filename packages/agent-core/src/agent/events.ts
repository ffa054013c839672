/**
 * What an agent session reports: the contract's session events, under their wire names and with
 * their wire payloads (contract/events.ts). rpc-server only coalesces, redacts and adds the envelope.
 */
import type { SessionEvent, TurnStatus, Usage } from '../contract/index.ts';

export type { TurnStatus };
/** Token use of a session so far. */
export type SessionUsage = Usage;
export type AgentEvent = SessionEvent;
export type AgentEventSink = (event: AgentEvent) => void;
