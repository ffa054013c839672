/** What a slash command answers: text for the user, and what the client should do next. */
import { array, boolean, discriminatedUnion, enum as oneOf, literal, number, optional, strictObject, string, type output } from 'zod/mini';

/** What the client should do after a command, beyond printing `output`. Plain data: it crosses the wire. */
export const CommandDirectiveSchema = discriminatedUnion('type', [
  /** Put `text` into the composer (e.g. `/undo` gives back the removed prompt). */
  strictObject({ type: literal('prefill'), text: string() }),
  /** Submit `message` as a normal prompt (e.g. `/retry`). */
  strictObject({ type: literal('send'), message: string() }),
  /** The session was replaced by a fresh one; `clear` also wipes the screen (`/clear`). */
  strictObject({ type: literal('new'), session_id: string(), clear: boolean() }),
  /** Switch to another session: by id (`/branch`) or by the name/id the user typed (`/resume x`). */
  strictObject({ type: literal('resume'), session_id: optional(string()), target: optional(string()) }),
  /** Open a picker the client owns. */
  strictObject({ type: literal('picker'), picker: oneOf(['sessions', 'model']) }),
]);
export type CommandDirective = output<typeof CommandDirectiveSchema>;

/** The result of `slash.exec`. */
export const CommandResultSchema = strictObject({
  output: optional(string()),
  warning: optional(string()),
  /** The client should exit. */
  exit: optional(boolean()),
  directive: optional(CommandDirectiveSchema),
});
export type CommandResult = output<typeof CommandResultSchema>;

/** One row of `commands.catalog`: a built-in or plugin slash command. */
export const CommandDescriptorSchema = strictObject({
  name: string(),
  aliases: array(string()),
  description: string(),
  category: string(),
  args_hint: string(),
  /** `builtin`, or the name of the plugin that registered it. */
  source: string(),
});
export type CommandDescriptor = output<typeof CommandDescriptorSchema>;

export const CompletionItemSchema = strictObject({ text: string(), display: string(), meta: string() });
export type CompletionItem = output<typeof CompletionItemSchema>;

/** Completions of a slash command or a path (`complete.slash`, `complete.path`). */
export const CompletionResultSchema = strictObject({
  items: array(CompletionItemSchema),
  /** Column in the input from which `text` replaces what was typed. */
  replace_from: number(),
});
export type CompletionResult = output<typeof CompletionResultSchema>;
