/** The backend's own requests to the client (PROTOCOL.md, "Prompts"): params it sends, results it reads. */
import { ApprovalChoiceSchema, ApprovalFindingSchema } from '@hermes/agent-core/contract';
import { array, object, optional, strictObject, string } from 'zod/mini';
import type { ServerRequest } from './methods.ts';

export const ServerRequestSchemas = {
  approval: {
    params: strictObject({
      session_id: string(),
      tool_name: string(),
      /** The command; for file tools `write <path>` or `read <path>` (reading `$HERMES_HOME/.env` asks). */
      command: string(),
      /** One line summing up the findings. */
      description: string(),
      /** Every reason the command needs approval, most severe first; a client shows them all. */
      findings: array(ApprovalFindingSchema),
      choices: array(ApprovalChoiceSchema),
      diff: optional(string()),
      /** The request's own id, repeated for clients that answer through `approval.respond`. */
      request_id: optional(string()),
    }),
    result: object({ choice: ApprovalChoiceSchema }),
  },
  clarify: {
    params: strictObject({ session_id: string(), question: string(), choices: optional(array(string())), request_id: optional(string()) }),
    result: object({ answer: string() }),
  },
  secret: {
    params: strictObject({ session_id: string(), env_var: string(), prompt: string(), request_id: optional(string()) }),
    result: object({ value: string() }),
  },
} satisfies Record<ServerRequest, { params: unknown; result: unknown }>;

export type ServerRequestSchemas = typeof ServerRequestSchemas;
