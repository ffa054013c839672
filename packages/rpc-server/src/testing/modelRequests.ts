/** What the scripted model server was sent, as e2e tests check it. */
import type { ModelServer } from '../../../../scripts/model-server/index.ts';

/** The tool result the model was sent in its last request (what a blocked call told it, for one). */
export function lastToolResult(server: ModelServer): string {
  const body = server.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
  return body.messages.filter((m) => m.role === 'tool').at(-1)!.content;
}
