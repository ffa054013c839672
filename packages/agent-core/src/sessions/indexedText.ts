import type { ToolCall } from '../providers/types.ts';

/** Strings and numbers of a parsed JSON value, in document order. */
function leaves(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) value.forEach((v) => leaves(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => leaves(v, out));
}

/**
 * What the search indexes see of an assistant's tool calls (`messages.tool_args_text`): each tool's
 * name and its argument values, decoded, so `grep -rn foo` in a terminal call is found by `foo` while
 * JSON keys and call ids stay out of the index. Arguments that are not JSON are indexed as written.
 * Migration 3 computes the same for rows written before it.
 */
export function toolCallSearchText(toolCalls: readonly ToolCall[] | undefined): string | null {
  if (!toolCalls?.length) return null;
  const parts: string[] = [];
  for (const call of toolCalls) {
    if (call.function?.name) parts.push(call.function.name);
    const args: unknown = call.function?.arguments;
    if (typeof args !== 'string') leaves(args, parts);
    else {
      try {
        leaves(JSON.parse(args), parts);
      } catch {
        // Arguments a model produced that are not JSON: still worth finding as text.
        parts.push(args);
      }
    }
  }
  return parts.join(' ') || null;
}
