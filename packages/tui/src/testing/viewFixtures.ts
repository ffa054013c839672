/**
 * View states for component render tests: a real zustand store holding a real `ViewState`, and the
 * protocol shapes the components draw (a session's info, an approval or clarify card), each with the
 * fields a test does not care about filled in plainly.
 */
import type { ApprovalChoice, ApprovalFinding, SessionInfo, Usage } from '@hermes/rpc-server/protocol';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { initialApprovalSelection, offeredChoices } from '../input/approvalKeys.ts';
import { noUsage, sessionInfo as baseSessionInfo } from './sessionFixtures.ts';
import { initialViewState, type PendingPrompt, type ToolCallView, type ViewState } from '../state/viewState.ts';

export function usage(fields: Partial<Usage> = {}): Usage {
  return { ...noUsage, model: 'gpt-test', ...fields };
}

/** The unit tests' session info (sessionFixtures.ts) as the component tests draw it. */
export function sessionInfo(fields: Partial<SessionInfo> = {}): SessionInfo {
  return baseSessionInfo({ provider: 'openai', cwd: '/srv/project', stored_session_id: '20261201_000000_abcdef', usage: usage(), ...fields });
}

/** A ready session's view state, with `fields` over it. */
export function viewState(fields: Partial<ViewState> = {}): ViewState {
  return { ...initialViewState(), phase: 'ready', status: '', sessionId: 's1', info: sessionInfo(), ...fields };
}

export const viewStore = (fields: Partial<ViewState> = {}): StoreApi<ViewState> => createStore<ViewState>(() => viewState(fields));

export function tool(fields: Partial<ToolCallView> = {}): ToolCallView {
  return { toolId: 't1', name: 'terminal', context: 'ls -la', status: 'done', durationS: 0.42, ...fields };
}

export type ApprovalPrompt = Extract<PendingPrompt, { kind: 'approval' }>;
export type ClarifyPrompt = Extract<PendingPrompt, { kind: 'clarify' }>;

/** An approval card as it first opens: every choice offered, Deny selected. */
export function approvalPrompt(
  request: { command: string; findings?: ApprovalFinding[]; description?: string; diff?: string; tool_name?: string },
  card: { choices?: ApprovalChoice[]; selected?: number; pager?: { top: number } } = {},
): ApprovalPrompt {
  const findings = request.findings ?? [];
  const choices = card.choices ?? offeredChoices(['once', 'session', 'always', 'deny']);
  return {
    kind: 'approval',
    id: 'srq-1',
    request: {
      session_id: 's1',
      tool_name: request.tool_name ?? 'terminal',
      command: request.command,
      description: request.description ?? '',
      findings,
      choices,
      ...(request.diff ? { diff: request.diff } : {}),
    },
    findings,
    choices,
    selected: card.selected ?? initialApprovalSelection(choices),
    ...(card.pager ? { pager: card.pager } : {}),
  };
}

export function clarifyPrompt(question: string, card: Partial<Pick<ClarifyPrompt, 'choices' | 'selected' | 'text' | 'cursor'>> = {}): ClarifyPrompt {
  const choices = card.choices ?? [];
  return { kind: 'clarify', id: 'srq-2', request: { session_id: 's1', question, choices }, choices, selected: 0, text: '', cursor: 0, ...card };
}
