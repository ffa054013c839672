/** A conversation as the client reads it (session.history, session.open results, exports). */
import { array, boolean, enum as oneOf, number, optional, strictObject, string, type output } from 'zod/mini';
import { TurnStatusSchema } from './events.ts';

/** What a conversation can be exported as (`session.export`, `/save`). */
export const EXPORT_FORMATS = ['md', 'json', 'html'] as const;
export const ExportFormatSchema = oneOf(EXPORT_FORMATS);
export type ExportFormat = output<typeof ExportFormatSchema>;

export const RoleSchema = oneOf(['user', 'assistant', 'system', 'tool']);
export type Role = output<typeof RoleSchema>;

export const ToolCallRecordSchema = strictObject({
  id: string(),
  name: string(),
  /** The arguments as the model wrote them (a JSON string). */
  arguments: string(),
});
export type ToolCallRecord = output<typeof ToolCallRecordSchema>;

/** One message of a transcript as the client sees it. */
export const TranscriptMessageSchema = strictObject({
  role: RoleSchema,
  text: string(),
  timestamp: optional(number()),
  row_id: optional(number()),
  /** For role `tool`: the tool that produced this result. */
  name: optional(string()),
  tool_call_id: optional(string()),
  /** For role `assistant`: the tool calls it made. */
  tool_calls: optional(array(ToolCallRecordSchema)),
  reasoning: optional(string()),
  /** For an assistant reply that did not finish; for a tool result, `interrupted` when the turn stopped the call. */
  status: optional(TurnStatusSchema),
  /** For role `tool`, as `tool.complete` said it: seconds the call ran (without the approval wait). */
  duration_s: optional(number()),
  /** For role `tool`: the call's error. */
  error: optional(string()),
  /** For role `tool`: the approval gate (or a hook) refused the call; the tool never ran. */
  blocked: optional(boolean()),
  /** For role `tool`: the unified diff of the file change the call made. */
  inline_diff: optional(string()),
});
export type TranscriptMessage = output<typeof TranscriptMessageSchema>;
