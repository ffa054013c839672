/**
 * The queue of backend questions (approvals, clarifications). Several may be pending at once (e.g.
 * parallel tool calls); they are shown one at a time, oldest first, and each leaves the queue when
 * it is answered or withdrawn.
 */
import type { ApprovalChoice, ApprovalFinding } from '@hermes/rpc-server/protocol';
import { initialApprovalSelection, offeredChoices } from '../input/approvalKeys.ts';
import { initialClarifyState } from '../input/clarifyKeys.ts';
import type { ApprovalRequest, ClarifyRequest, PendingPrompt, ViewState } from './viewState.ts';

/** Longest piece of a command or answer repeated in the transcript line that records an answer. */
const RECORD_CHARS = 80;

/** The line a finding names, when it is one (a whole number from 1); a card keeps that line on screen. */
const lineOf = (line: unknown): { line?: number } => (typeof line === 'number' && Number.isInteger(line) && line >= 1 ? { line } : {});

/**
 * The findings of an approval request as the card can show them. A malformed entry is shown as best
 * it can be rather than dropped: a reason to worry must not vanish because a field is missing.
 */
function approvalFindings(findings: unknown): ApprovalFinding[] {
  if (!Array.isArray(findings)) return [];
  return findings
    .filter((finding): finding is Record<string, unknown> => typeof finding === 'object' && finding !== null)
    .map((finding) => ({
      level: finding.level === 'hardline' ? 'hardline' : 'dangerous',
      rule: typeof finding.rule === 'string' ? finding.rule : '?',
      target: typeof finding.target === 'string' ? finding.target : '?',
      why: typeof finding.why === 'string' ? finding.why : '',
      ...lineOf(finding.line),
    }));
}

export function approvalPrompt(id: string, request: ApprovalRequest): PendingPrompt {
  const choices = offeredChoices(request.choices);
  return { kind: 'approval', id, request, findings: approvalFindings(request.findings), choices, selected: initialApprovalSelection(choices) };
}

export function clarifyPrompt(id: string, request: ClarifyRequest): PendingPrompt {
  const choices = (request.choices ?? []).filter((choice) => typeof choice === 'string' && choice.trim() !== '');
  return { kind: 'clarify', id, request, choices, ...initialClarifyState() };
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > RECORD_CHARS ? `${flat.slice(0, RECORD_CHARS - 1)}…` : flat;
}

const VERDICT: Record<ApprovalChoice, string> = {
  once: 'allowed once',
  session: 'allowed for this session',
  always: 'always allowed',
  deny: 'denied',
};

/** The transcript line that records an approval answer once the card is gone. */
export function approvalRecord(request: ApprovalRequest, choice: ApprovalChoice): string {
  return `${VERDICT[choice]}: ${request.tool_name} ${short(request.command)}`;
}

export function clarifyRecord(request: ClarifyRequest, answer: string): string {
  return `${short(request.question)} → ${answer ? short(answer) : '(declined to answer)'}`;
}

const WITHDRAWN: Record<string, string> = {
  interrupted: 'interrupted',
  timeout: 'timed out',
  session_closed: 'session closed',
  shutdown: 'backend shutting down',
  cancelled: 'cancelled',
  backend_lost: 'the backend stopped',
};

/** Why a card went away without an answer, in words; undefined when nothing needs saying. */
export function withdrawnNotice(prompt: PendingPrompt, reason: string): string | undefined {
  // `resolved`: answered some other way (another client); `exiting`: the user is leaving. Nothing to act on.
  if (reason === 'resolved' || reason === 'exiting') return undefined;
  const what = prompt.kind === 'approval' ? 'approval' : 'question';
  return `${what} withdrawn: ${WITHDRAWN[reason] ?? reason}`;
}

export function openPrompt(state: ViewState, prompt: PendingPrompt): ViewState {
  if (state.prompts.some((pending) => pending.id === prompt.id)) return state;
  return { ...state, prompts: [...state.prompts, prompt] };
}

export function changePrompt(state: ViewState, prompt: PendingPrompt): ViewState {
  if (!state.prompts.some((pending) => pending.id === prompt.id)) return state;
  return { ...state, prompts: state.prompts.map((pending) => (pending.id === prompt.id ? prompt : pending)) };
}

/** Removes a prompt; returns it too, or undefined (and the state unchanged) when it was not queued. */
export function removePrompt(state: ViewState, id: string): [ViewState, PendingPrompt | undefined] {
  const prompt = state.prompts.find((pending) => pending.id === id);
  if (!prompt) return [state, undefined];
  return [{ ...state, prompts: state.prompts.filter((pending) => pending !== prompt) }, prompt];
}
