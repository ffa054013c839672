import { number, optional, strictObject, string, type output } from 'zod/mini';

/** Token use of a session so far (`session.usage`, `message.complete`, `session.info`). */
export const UsageSchema = strictObject({
  model: string(),
  input: number(),
  output: number(),
  reasoning: number(),
  total: number(),
  calls: number(),
  /** Tokens of the last prompt: how full the context window is. */
  context_used: optional(number()),
  context_max: optional(number()),
  context_percent: optional(number()),
  cost_usd: optional(number()),
});
export type Usage = output<typeof UsageSchema>;
