/**
 * Every method's params and result, written once as zod/mini schemas (PROTOCOL.md, "Methods"). The
 * backend parses params with them (one wrapper, -32602 naming the field) and, in check mode, checks
 * results against them; `ParamsOf`/`ResultOf` (methods.ts) are derived from them. Params are lenient
 * (unknown fields are ignored), results strict (a field the schema does not name is a disagreement).
 */
import {
  ApprovalChoiceSchema,
  ApprovalVerdictSchema,
  CommandDescriptorSchema,
  CommandResultSchema,
  ExportFormatSchema,
  CompletionResultSchema,
  SessionInfoSchema,
  ShellExecResultSchema,
  ToolsetDescriptorSchema,
  UsageSchema,
} from '@hermes/agent-core/contract';
import { array, boolean, enum as oneOf, gte, int, lte, maxLength, nullable, number, object, optional, refine, strictObject, string, unknown } from 'zod/mini';
import { ParamLimit } from './limits.ts';
import type { Method } from './methods.ts';
import { cappedString, count, nonEmptyString, optionalSessionId, sessionId, sessionIdParams } from './paramFields.ts';
import {
  McpServerStatusSchema,
  McpTestResultSchema,
  DoctorCheckSchema,
  PluginDescriptorSchema,
  SearchHitSchema,
  SessionSummarySchema,
  StoredSessionInfoSchema,
  TranscriptMessageSchema,
} from './shapes.ts';

/** A result field that may hold any JSON value but must be there (`null` says "not set"). */
const presentValue = () => unknown().check(refine((v) => v !== undefined, 'is required'));

/** The result of `session.create`, `session.resume` and `session.branch`. */
export const SessionOpenResultSchema = strictObject({
  session_id: string(),
  stored_session_id: string(),
  message_count: number(),
  messages: array(TranscriptMessageSchema),
  info: SessionInfoSchema,
});

export const SessionCreateParamsSchema = object({
  cols: optional(count(ParamLimit.cols)),
  cwd: optional(nonEmptyString(ParamLimit.path)),
  title: optional(nonEmptyString(ParamLimit.title)),
  model: optional(nonEmptyString(ParamLimit.name)),
  provider: optional(nonEmptyString(ParamLimit.name)),
});

/** `approvals.check`: exactly one of `command` and `write_path`; `cwd` defaults to the backend's. */
export const ApprovalsCheckParamsSchema = object({
  command: optional(nonEmptyString(ParamLimit.command)),
  /** A file written by write_file/patch: absolute, or relative to `cwd`. */
  write_path: optional(nonEmptyString(ParamLimit.path)),
  cwd: optional(nonEmptyString(ParamLimit.path)),
});

const noParams = object({});
const optionalSession = object({ session_id: optionalSessionId() });
const resolved = strictObject({ resolved: number() });

export const MethodSchemas = {
  'session.create': { params: SessionCreateParamsSchema, result: SessionOpenResultSchema },
  /** Of a session already open here: the open one is closed (its id then answers 4001), a new id is returned. */
  /**
   * `tail`: only the last `tail` messages in `messages` (`message_count` still counts them all), for a
   * client that shows the end of a long session first; the rest is read with `session.history`.
   */
  'session.resume': {
    params: object({ session_id: sessionId(), cols: optional(count(ParamLimit.cols)), tail: optional(count(ParamLimit.limit)) }),
    result: SessionOpenResultSchema,
  },
  'session.list': {
    params: object({ limit: optional(count(ParamLimit.limit)), query: optional(cappedString(ParamLimit.query)) }),
    result: strictObject({ sessions: array(SessionSummarySchema) }),
  },
  /**
   * Text shorter than three characters has no index: it is looked for in the newest messages, as far as
   * a time budget reaches, and `searched_since` (epoch seconds) then says from when on; `exhaustive`
   * reads every message instead, however long that takes.
   */
  'session.search': {
    params: object({ query: cappedString(ParamLimit.query), limit: optional(count(ParamLimit.limit)), exhaustive: optional(boolean()) }),
    result: strictObject({ hits: array(SearchHitSchema), searched_since: optional(number()) }),
  },
  /**
   * A live session's messages; for a stored id or exact title that is not open here, the stored
   * messages read without opening (nothing is repaired or written) and `stored` describing it.
   * `offset`/`limit`: only messages `offset` to `offset + limit - 1` (0 is the first), for a client
   * that reads a long session in pages; `count` still counts them all.
   */
  'session.history': {
    params: object({ session_id: sessionId(), offset: optional(number().check(int(), gte(0))), limit: optional(count(ParamLimit.limit)) }),
    result: strictObject({ count: number(), messages: array(TranscriptMessageSchema), stored: optional(StoredSessionInfoSchema) }),
  },
  /**
   * A session (live id, stored id or exact title) as Markdown, JSON or HTML: the one exporter, also
   * behind `/save` and `hermes sessions export`. Reads the store only, like session.history.
   */
  'session.export': { params: object({ session_id: sessionId(), format: ExportFormatSchema }), result: strictObject({ format: ExportFormatSchema, text: string() }) },
  'session.interrupt': { params: sessionIdParams, result: strictObject({ status: oneOf(['interrupted', 'not_interrupted']) }) },
  /** Stops a running turn; open questions get `request.cancel` (`session_closed`). */
  'session.close': { params: sessionIdParams, result: strictObject({ closed: boolean() }) },
  /** Deletes a stored session (by stored id or exact title) that is not open. */
  'session.delete': { params: sessionIdParams, result: strictObject({ deleted: boolean() }) },
  'session.title': {
    params: object({ session_id: sessionId(), title: optional(cappedString(ParamLimit.title)) }),
    result: strictObject({ title: nullable(string()) }),
  },
  'session.branch': { params: object({ session_id: sessionId(), name: optional(cappedString(ParamLimit.title)) }), result: SessionOpenResultSchema },
  'session.undo': { params: sessionIdParams, result: strictObject({ removed: number(), text: string() }) },
  'session.usage': { params: sessionIdParams, result: UsageSchema },
  'session.compress': {
    params: object({ session_id: sessionId(), focus_topic: optional(cappedString(ParamLimit.answer)) }),
    result: strictObject({ removed: number(), before_tokens: number(), after_tokens: number(), summary: string() }),
  },
  /** A turn already running answers 4009 (nothing is queued); `queued` is reserved and never sent. */
  'prompt.submit': {
    params: object({ session_id: sessionId(), text: cappedString(ParamLimit.text) }),
    result: strictObject({ status: oneOf(['streaming', 'queued']) }),
  },
  'commands.catalog': { params: optionalSession, result: strictObject({ commands: array(CommandDescriptorSchema) }) },
  'complete.slash': { params: object({ text: cappedString(ParamLimit.path), session_id: optionalSessionId() }), result: CompletionResultSchema },
  'complete.path': {
    params: object({ word: cappedString(ParamLimit.path), cwd: optional(cappedString(ParamLimit.path)) }),
    result: CompletionResultSchema,
  },
  'slash.exec': { params: object({ session_id: cappedString(ParamLimit.id), command: cappedString(ParamLimit.text) }), result: CommandResultSchema },
  'process.stop': { params: optionalSession, result: strictObject({ killed: number() }) },
  'config.get': { params: object({ key: nonEmptyString(ParamLimit.name) }), result: strictObject({ value: presentValue() }) },
  'config.set': {
    params: object({ key: nonEmptyString(ParamLimit.name), value: unknown(), session_id: optional(cappedString(ParamLimit.id)) }),
    result: strictObject({ key: string(), value: presentValue(), warning: optional(string()) }),
  },
  'model.options': {
    params: noParams,
    result: strictObject({
      current: strictObject({ provider: string(), model: string() }),
      providers: array(strictObject({ id: string(), models: array(string()), configured: boolean() })),
    }),
  },
  'tools.list': { params: optionalSession, result: strictObject({ toolsets: array(ToolsetDescriptorSchema) }) },
  'plugins.list': { params: noParams, result: strictObject({ plugins: array(PluginDescriptorSchema) }) },
  /**
   * The MCP servers of config.yaml and how each is doing. `wait_ms`: answer once every enabled server
   * has connected or failed, or after this long (0, the default: at once, some may be `connecting`).
   */
  'mcp.list': {
    params: object({ wait_ms: optional(number().check(int(), gte(0), lte(ParamLimit.wait_ms))) }),
    result: strictObject({ servers: array(McpServerStatusSchema) }),
  },
  /** Connects to one server as config.yaml has it now, lists its tools and disconnects; a failure is `ok: false` with `error`. */
  'mcp.test': { params: object({ name: nonEmptyString(ParamLimit.name) }), result: McpTestResultSchema },
  /**
   * Re-reads config.yaml's `mcp_servers` and applies it (new, removed, changed servers), then every
   * open session gets `session.info`. While a turn runs (in `session_id`, else in any open session)
   * the answer is `confirm_required` and nothing changes: the turn's tools would change under it;
   * `confirm: true` reloads anyway, `always: true` too and stops asking for the rest of this backend.
   */
  'reload.mcp': {
    params: object({ session_id: optionalSessionId(), confirm: optional(boolean()), always: optional(boolean()) }),
    result: strictObject({ status: oneOf(['confirm_required', 'reloaded']), message: optional(string()) }),
  },
  'shell.exec': {
    params: object({ session_id: optionalSessionId(), command: nonEmptyString(ParamLimit.command) }),
    result: ShellExecResultSchema,
  },
  /** Stops the session's running `shell.exec`s (each answers with `[stopped: …]`); answered once they have. */
  'shell.cancel': { params: sessionIdParams, result: strictObject({ stopped: number() }) },
  'cli.exec': {
    params: object({ argv: array(cappedString(ParamLimit.command)).check(maxLength(ParamLimit.argv_items)) }),
    result: strictObject({ code: number(), output: string() }),
  },
  'approval.respond': {
    params: object({ session_id: sessionId(), request_id: nonEmptyString(ParamLimit.id), choice: ApprovalChoiceSchema }),
    result: resolved,
  },
  'clarify.respond': { params: object({ request_id: nonEmptyString(ParamLimit.id), answer: cappedString(ParamLimit.answer) }), result: resolved },
  /** How the approval gate judges a command or file write; needs no session, runs nothing. */
  'approvals.check': { params: ApprovalsCheckParamsSchema, result: ApprovalVerdictSchema },
  /**
   * What `hermes doctor` reports from the backend: the SQLite store, config.yaml, the model and its key
   * (never the key), plugins, MCP servers; with `online`, one tiny model request. `timeout_ms` bounds
   * each wait (MCP servers connecting, the model's answer).
   */
  'doctor.check': {
    params: object({ online: optional(boolean()), timeout_ms: optional(count(120_000)) }),
    result: strictObject({ checks: array(DoctorCheckSchema) }),
  },
} satisfies Record<Method, { params: unknown; result: unknown }>;

export type MethodSchemas = typeof MethodSchemas;
