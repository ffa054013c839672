/**
 * Method and server-request names, and their params/result types derived from the schemas
 * (methodSchemas.ts, serverRequestSchemas.ts). Type-only imports: this module stays free of zod.
 */
import type { output } from 'zod/mini';
import type { ApprovalsCheckParamsSchema, MethodSchemas, SessionCreateParamsSchema, SessionOpenResultSchema } from './methodSchemas.ts';
import type { ServerRequestSchemas } from './serverRequestSchemas.ts';
import type { sessionIdParams } from './paramFields.ts';

/** Client → backend request names (PROTOCOL.md, "Methods"). */
export const Method = {
  SessionCreate: 'session.create',
  SessionResume: 'session.resume',
  SessionList: 'session.list',
  SessionSearch: 'session.search',
  SessionHistory: 'session.history',
  SessionExport: 'session.export',
  SessionInterrupt: 'session.interrupt',
  SessionClose: 'session.close',
  SessionDelete: 'session.delete',
  SessionTitle: 'session.title',
  SessionBranch: 'session.branch',
  SessionUndo: 'session.undo',
  SessionUsage: 'session.usage',
  SessionCompress: 'session.compress',
  PromptSubmit: 'prompt.submit',
  CommandsCatalog: 'commands.catalog',
  CompleteSlash: 'complete.slash',
  CompletePath: 'complete.path',
  SlashExec: 'slash.exec',
  ProcessStop: 'process.stop',
  ConfigGet: 'config.get',
  ConfigSet: 'config.set',
  ModelOptions: 'model.options',
  ToolsList: 'tools.list',
  PluginsList: 'plugins.list',
  McpList: 'mcp.list',
  McpTest: 'mcp.test',
  ReloadMcp: 'reload.mcp',
  ShellExec: 'shell.exec',
  ShellCancel: 'shell.cancel',
  CliExec: 'cli.exec',
  ApprovalRespond: 'approval.respond',
  ClarifyRespond: 'clarify.respond',
  ApprovalsCheck: 'approvals.check',
  DoctorCheck: 'doctor.check',
} as const;

export type Method = (typeof Method)[keyof typeof Method];

/** Each method's params (as the handler receives them, after parsing) and result. */
export type MethodMap = {
  [M in Method]: { params: output<MethodSchemas[M]['params']>; result: output<MethodSchemas[M]['result']> };
};

export type ParamsOf<M extends Method> = MethodMap[M]['params'];
export type ResultOf<M extends Method> = MethodMap[M]['result'];

export type SessionCreateParams = output<typeof SessionCreateParamsSchema>;
/** The result of `session.create`, `session.resume` and `session.branch`. */
export type SessionOpenResult = output<typeof SessionOpenResultSchema>;
export type SessionIdParams = output<typeof sessionIdParams>;
/** `approvals.check`: exactly one of `command` and `write_path`; `cwd` defaults to the backend's. */
export type ApprovalsCheckParams = output<typeof ApprovalsCheckParamsSchema>;
/** The gate's verdict: the most severe level over all findings, and every finding. */
export type ApprovalsCheckResult = ResultOf<'approvals.check'>;

/** Backend → client request names (PROTOCOL.md, "Prompts"). Their ids start with `srq-`. */
export const ServerRequest = {
  Approval: 'approval',
  Clarify: 'clarify',
  Secret: 'secret',
} as const;

export type ServerRequest = (typeof ServerRequest)[keyof typeof ServerRequest];

export const SERVER_REQUEST_ID_PREFIX = 'srq-';

export type ServerRequestMap = {
  [R in ServerRequest]: { params: output<ServerRequestSchemas[R]['params']>; result: output<ServerRequestSchemas[R]['result']> };
};
