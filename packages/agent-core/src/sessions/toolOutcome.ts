/**
 * How a tool call ended, stored with its result (state.db migration 5), so a resumed session shows what
 * `tool.complete` said live. An interrupted call is the message's `status: 'interrupted'`.
 */
export interface ToolOutcome {
  /** Seconds the call ran, without the time spent waiting for approval. */
  durationS: number;
  error?: string;
  /** The approval gate (or a hook) refused the call: the tool never ran. */
  blocked?: boolean;
  inlineDiff?: string;
}

/** The outcome's columns of a `messages` row. */
export interface ToolOutcomeColumns {
  duration_s: number | null;
  tool_error: string | null;
  blocked: number | null;
  inline_diff: string | null;
}

/** The column values to insert, in the order duration_s, tool_error, blocked, inline_diff. */
export function toolOutcomeColumns(outcome: ToolOutcome | undefined): [number | null, string | null, number | null, string | null] {
  if (!outcome) return [null, null, null, null];
  return [outcome.durationS, outcome.error ?? null, outcome.blocked ? 1 : 0, outcome.inlineDiff ?? null];
}

/** The stored outcome of a row; rows written before migration 5 (or not by a tool call) have none. */
export function toolOutcome(row: ToolOutcomeColumns): ToolOutcome | undefined {
  if (row.duration_s === null) return undefined;
  return {
    durationS: row.duration_s,
    ...(row.tool_error !== null ? { error: row.tool_error } : {}),
    ...(row.blocked ? { blocked: true } : {}),
    ...(row.inline_diff !== null ? { inlineDiff: row.inline_diff } : {}),
  };
}
