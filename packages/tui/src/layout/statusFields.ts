/**
 * The status line's details (elapsed time, background tasks, model, context, tokens, cost) as text, and
 * which of them a narrow terminal keeps: whole fields are dropped, least useful first, before anything
 * is cut with an ellipsis.
 */
import stringWidth from 'string-width';
import type { Usage } from '@hermes/rpc-server/protocol';

export function formatTokens(count: number): string {
  if (count < 1_000) return String(count);
  if (count < 1_000_000) return `${(count / 1_000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

/** Dollars: cents matter below a dollar, so four decimals there. */
export function formatCost(usd: number): string {
  return `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}

/** `7s`, `1m 05s`, `2h 03m`. */
export function formatElapsed(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3_600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3_600)}h ${String(Math.floor((s % 3_600) / 60)).padStart(2, '0')}m`;
}

export interface StatusFacts {
  /** Seconds the running turn (or `!cmd`, `/command`) has taken; undefined when nothing runs. */
  elapsedS?: number;
  backgroundTasks?: number;
  model?: string;
  usage?: Usage;
}

/** Fields in the order shown; `keep` ranks what a narrow row keeps longest (higher stays). */
interface Field {
  text: string;
  keep: number;
}

function fields({ elapsedS, backgroundTasks, model, usage }: StatusFacts): Field[] {
  const out: Field[] = [];
  if (elapsedS !== undefined) out.push({ text: formatElapsed(elapsedS), keep: 6 });
  // The model is never dropped: cut with an ellipsis when nothing else is left to drop.
  if (model) out.push({ text: model, keep: Infinity });
  if (usage && usage.total > 0) out.push({ text: `${formatTokens(usage.total)} tokens`, keep: 1 });
  if (usage?.context_percent !== undefined && usage.total > 0) out.push({ text: `context ${Math.round(usage.context_percent)}%`, keep: 4 });
  if (usage?.cost_usd !== undefined) out.push({ text: formatCost(usage.cost_usd), keep: 2 });
  if (backgroundTasks) out.push({ text: `${backgroundTasks} background task${backgroundTasks === 1 ? '' : 's'}`, keep: 5 });
  return out;
}

/** Columns a field takes after the label: its ` · ` and its text. */
const fieldWidth = (field: Field) => 3 + stringWidth(field.text);

/**
 * The details that fit in `room` columns (after the label), joined with ` · `: the lowest-ranked fields
 * are dropped whole until the rest fits (what still does not fit is cut by the caller). Without `room`
 * (no known width) all are kept.
 */
export function statusDetails(facts: StatusFacts, room?: number): string {
  const kept = fields(facts);
  if (room !== undefined) {
    let used = kept.reduce((sum, field) => sum + fieldWidth(field), 0);
    while (used > room) {
      const lowest = kept.reduce((low, field, i) => (field.keep < kept[low]!.keep ? i : low), 0);
      if (kept[lowest]!.keep === Infinity) break;
      used -= fieldWidth(kept[lowest]!);
      kept.splice(lowest, 1);
    }
  }
  return kept.map((field) => field.text).join(' · ');
}
