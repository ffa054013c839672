/** Complete protocol values for unit tests of the view: a session's info and the result that opens it. */
import type { SessionInfo, SessionOpenResult, Usage } from '@hermes/rpc-server/protocol';

export const noUsage: Usage = { model: 'm', input: 0, output: 0, reasoning: 0, total: 0, calls: 0 };

export function sessionInfo(overrides: Partial<SessionInfo> = {}): SessionInfo {
  return {
    model: 'gpt-test',
    provider: 'custom',
    cwd: '/home/u/project',
    title: null,
    stored_session_id: 'stored-1',
    toolsets: {},
    approval_mode: 'manual',
    yolo: false,
    plugin_count: 0,
    usage: noUsage,
    version: '0.1.0',
    ...overrides,
  };
}

/** What `session.create` (or a resume) answers for live session `sessionId`. */
export function openResult(sessionId: string, messages: SessionOpenResult['messages'] = [], info: Partial<SessionInfo> = {}): SessionOpenResult {
  return { session_id: sessionId, stored_session_id: info.stored_session_id ?? 'stored-1', message_count: messages.length, messages, info: sessionInfo(info) };
}
