/** A session's bookkeeping beside its turns: token and cost usage, and its automatic title. */
import type { ChatResponse } from '../providers/types.ts';
import { redactSecrets } from '../secrets/processSecrets.ts';
import type { SessionStore } from '../sessions/sessionStore.ts';
import type { AgentEventSink, SessionUsage } from './events.ts';

/**
 * Adds one model call to the session's usage (tokens, how full the context is, cost when priced) and
 * returns what the store should add for it. A side call (smart approval's guardian) adds its tokens
 * but says nothing about how full the conversation's context is.
 */
export function addCallUsage(
  usage: SessionUsage,
  response: ChatResponse,
  contextMax: number,
  pricing?: { input: number; output: number },
  sideCall = false,
): { input: number; output: number; reasoning: number; costUsd?: number } | null {
  usage.calls += 1;
  if (!response.usage) return null;
  const call = response.usage;
  usage.input += call.input;
  usage.output += call.output;
  usage.reasoning += call.reasoning;
  usage.total = usage.input + usage.output;
  if (!sideCall) setContextFill(usage, call.input, contextMax);
  if (!pricing) return { ...call };
  const costUsd = (call.input * pricing.input + call.output * pricing.output) / 1_000_000;
  usage.cost_usd = (usage.cost_usd ?? 0) + costUsd;
  return { ...call, costUsd };
}

/** How full the context window is: `tokens` of a prompt against the model's `contextMax`. */
export function setContextFill(usage: SessionUsage, tokens: number, contextMax: number): void {
  usage.context_used = tokens;
  usage.context_max = contextMax;
  usage.context_percent = Math.min(100, Math.round((tokens / contextMax) * 1000) / 10);
}

/** A title from a prompt: its first non-empty line, whitespace collapsed, at most 60 characters. */
export function titleFrom(prompt: string): string {
  const line = prompt.split('\n').map((l) => l.trim()).find((l) => l.length > 0) ?? '';
  const flat = line.replace(/\s+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 59).trimEnd()}…` : flat;
}

/** After the first exchange, an untitled session takes its first prompt's first line (numbered if taken). */
export function applyAutoTitle(store: SessionStore, sessionId: string, prompt: string, emit: AgentEventSink): void {
  const stored = store.getSession(sessionId);
  if (!stored || stored.title) return;
  // Redacted before it is cut: a cut through a pasted key would leave its start unrecognisable.
  const base = titleFrom(redactSecrets(prompt));
  if (!base) return;
  for (let n = 1; n <= 20; n += 1) {
    const title = n === 1 ? base : `${base} (${n})`;
    try {
      store.setTitle(sessionId, title);
      emit({ type: 'session.title', payload: { title } });
      return;
    } catch {
      // Taken by another session: try the next number.
    }
  }
}
