/**
 * The guardian's answer, read strictly: one JSON object `{"verdict": "approve" | "deny" | "escalate",
 * "reason": "<one line>"}` and nothing else. Anything else is not a verdict, and the caller asks the human.
 */

export type GuardianDecision = 'approve' | 'deny' | 'escalate';
export const GUARDIAN_DECISIONS: readonly GuardianDecision[] = ['approve', 'deny', 'escalate'];

export interface GuardianVerdict {
  decision: GuardianDecision;
  /** One line, shown to the user, recorded, and (for a denial) sent to the model. */
  reason: string;
}

/** Long enough for a sentence; a longer "reason" is an essay the status line cannot show. */
export const MAX_REASON_CHARS = 300;

export type ParsedVerdict = { ok: true; verdict: GuardianVerdict } | { ok: false; problem: string };

export function parseGuardianVerdict(text: string): ParsedVerdict {
  const fail = (problem: string): ParsedVerdict => ({ ok: false, problem });
  const trimmed = text.trim();
  if (!trimmed) return fail('the answer was empty');
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return fail(`the answer was not a JSON object: ${preview(trimmed)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(`the answer was not a JSON object: ${preview(trimmed)}`);
  const fields = value as Record<string, unknown>;
  const extra = Object.keys(fields).filter((key) => key !== 'verdict' && key !== 'reason');
  if (extra.length) return fail(`the answer had fields other than verdict and reason (${extra.join(', ')})`);
  const { verdict, reason } = fields;
  if (typeof verdict !== 'string' || !(GUARDIAN_DECISIONS as readonly string[]).includes(verdict)) {
    return fail(`"verdict" must be one of ${GUARDIAN_DECISIONS.join(', ')} (found ${JSON.stringify(verdict)})`);
  }
  if (typeof reason !== 'string' || !reason.trim()) return fail('"reason" must be a non-empty string');
  if (/[\r\n]/.test(reason.trim())) return fail('"reason" must be one line');
  if (reason.trim().length > MAX_REASON_CHARS) return fail(`"reason" must be at most ${MAX_REASON_CHARS} characters`);
  return { ok: true, verdict: { decision: verdict as GuardianDecision, reason: reason.trim() } };
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return JSON.stringify(flat.length > 80 ? `${flat.slice(0, 79)}…` : flat);
}
