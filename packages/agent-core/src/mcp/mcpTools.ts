/**
 * An MCP server's tools as registry tools: `mcp_<server>_<tool>` with the server's JSON schema in
 * toolset `mcp-<server>`, plus the resource and prompt wrappers. They run through the registry like
 * any built-in (hooks, middleware, approval, clipOutput). SDK-free: the connection is reached through
 * `live()`, which is null while the server is down.
 */
import type { ApprovalSubject } from '../approvals/types.ts';
import { redactSecretsDeep } from '../secrets/processSecrets.ts';
import type { ToolArgs, ToolContext, ToolDefinition } from '../tools/types.ts';
import type { McpConnection, McpTool, SkippedTool } from './mcpConnection.ts';
import type { McpServerConfig } from './mcpConfig.ts';
import { callResultText, promptText, readResourceText } from './mcpResults.ts';
import { McpRequestError } from './requestError.ts';
import { mcpToolName, mcpToolset, serverFingerprint } from './toolNames.ts';

/** Tool errors longer than this are cut: an error body is a message, not a document (as in Hermes). */
const MAX_ERROR_CHARS = 2048;
/** A tool description longer than this is cut: it is sent with every model request. */
export const MAX_DESCRIPTION_CHARS = 4096;
/** A tool whose input schema is larger than this (serialized) is not offered: it would swell every model request. */
const MAX_SCHEMA_BYTES = 64 * 1024;

export interface ServerTools {
  config: McpServerConfig;
  /** The live connection, or null while the server is down. */
  live: () => McpConnection | null;
  /** Why the server is down, for a call that finds it so. */
  downReason: () => string | null;
  /** Told when a request found the connection gone (a URL server that went away). */
  onConnectionLost: (reason: string) => void;
}

/** The server tools the config lets through: `include` (when given) wins over `exclude`. */
export function selectTools<T extends { name: string }>(tools: T[], policy: McpServerConfig['tools']): T[] {
  if (policy.include) {
    const include = new Set(policy.include);
    return tools.filter((tool) => include.has(tool.name));
  }
  const exclude = new Set(policy.exclude ?? []);
  return tools.filter((tool) => !exclude.has(tool.name));
}

/** `tools.include`/`tools.exclude` names the server does not list (a typo would silently give 0 tools), or null. */
export function unmatchedToolsNote(listed: string[], policy: McpServerConfig['tools']): string | null {
  const have = new Set(listed);
  const parts = (['include', 'exclude'] as const).flatMap((key) => {
    const missing = (policy[key] ?? []).filter((name) => !have.has(name));
    return missing.length > 0 ? [`tools.${key} names ${missing.join(', ')}, which the server does not list`] : [];
  });
  return parts.length > 0 ? `${parts.join('; ')} (its tools: ${[...have].sort().join(', ') || 'none'})` : null;
}

/** The tools small enough to offer; the others are skipped, saying why. */
export function withinCaps(tools: McpTool[]): { tools: McpTool[]; skipped: SkippedTool[] } {
  const kept: McpTool[] = [];
  const skipped: SkippedTool[] = [];
  for (const tool of tools) {
    const bytes = Buffer.byteLength(JSON.stringify(tool.inputSchema));
    if (bytes > MAX_SCHEMA_BYTES) skipped.push({ name: tool.name, why: `its inputSchema is ${Math.round(bytes / 1024)} kB, over the ${MAX_SCHEMA_BYTES / 1024} kB a tool may send with every request` });
    else kept.push(tool);
  }
  return { tools: kept, skipped };
}

/** One warning naming every tool of a server that is not offered, or null. */
export function skippedWarning(server: string, skipped: SkippedTool[]): string | null {
  if (skipped.length === 0) return null;
  const list = skipped.map((tool) => `${tool.name} (${tool.why})`).join('; ');
  return `MCP server "${server}": ${skipped.length === 1 ? 'a tool is' : `${skipped.length} tools are`} not offered to the model: ${list}`;
}

/** The arguments schema as the registry needs it: an object schema with `properties` and valid `required`. */
function argumentSchema(input: McpTool['inputSchema']): Record<string, unknown> {
  const properties = input.properties && typeof input.properties === 'object' ? input.properties : {};
  // `$schema` names the dialect for validators; some providers refuse a tool schema that carries it.
  const { $schema: _dialect, ...rest } = input as Record<string, unknown>;
  const schema: Record<string, unknown> = { ...rest, type: 'object', properties };
  if (Array.isArray(input.required)) schema.required = input.required.filter((name) => typeof name === 'string' && name in properties);
  return schema;
}

function clipError(text: string): string {
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}… [truncated]` : text;
}

/**
 * Runs one request on the server, turning its failures into errors the model reads (the registry makes
 * them `[TOOL_ERROR]` results). An interrupt is rethrown as the abort it is.
 */
async function onServer<T>(server: ServerTools, label: string, context: ToolContext, run: (connection: McpConnection) => Promise<T>): Promise<T> {
  const { config } = server;
  const connection = server.live();
  if (!connection) throw new Error(`MCP server "${config.name}" is not connected (${server.downReason() ?? 'still connecting'}); hermes keeps retrying it. Do not retry ${label} now.`);
  try {
    return await run(connection);
  } catch (error) {
    if (context.signal.aborted) throw context.signal.reason ?? error;
    if (!(error instanceof McpRequestError)) throw error;
    if (error.kind === 'timeout') throw new Error(`${label} did not answer within ${config.timeoutS} s (mcp_servers.${config.name}.timeout); the call was cancelled.`);
    if (error.kind === 'closed') {
      server.onConnectionLost(error.message);
      throw new Error(clipError(`MCP server "${config.name}" failed during ${label}: ${error.message}. hermes restarts it; its tools are unavailable until then.`));
    }
    throw new Error(clipError(`MCP server "${config.name}" answered ${label} with an error: ${error.message}`));
  }
}

const callOptions = (config: McpServerConfig, context: ToolContext) => ({ timeoutMs: config.timeoutS * 1000, signal: context.signal });

/** The approval subject for a call, when one is needed: `approval: ask`, or a destructive tool (and not a read-only one). */
function approvalFor(config: McpServerConfig, name: string, tool: McpTool | null, args: ToolArgs): ApprovalSubject | null {
  const destructive = tool?.annotations?.destructiveHint === true && tool.annotations.readOnlyHint !== true;
  if (config.approval !== 'ask' && !destructive) return null;
  const why =
    config.approval === 'ask'
      ? `call ${name}: mcp_servers.${config.name} has approval: ask (every call asks)`
      : `call ${name}: the MCP server marks this tool destructive`;
  const rule = config.approval === 'ask' ? 'mcp.ask' : 'mcp.destructive';
  return { kind: 'tool', toolName: name, arguments: redactSecretsDeep(args), rule, target: `${name}#${serverFingerprint(config)}`, why };
}

function describe(config: McpServerConfig, text: string | undefined, fallback: string): string {
  let body = text?.trim() || fallback;
  if (body.length > MAX_DESCRIPTION_CHARS) body = `${body.slice(0, MAX_DESCRIPTION_CHARS)}… [description cut at ${MAX_DESCRIPTION_CHARS} characters]`;
  return `${body} (MCP server ${config.name})`;
}

/** The registry definitions for `tools` (already selected) and the wrappers the server's capabilities allow. */
export function buildToolDefinitions(
  server: ServerTools,
  tools: McpTool[],
  capabilities: { resources: boolean; prompts: boolean },
  taken: (name: string) => boolean,
): ToolDefinition[] {
  const { config } = server;
  const toolset = mcpToolset(config.name);
  const names = new Set<string>();
  const nameFor = (tool: string) => {
    const name = mcpToolName(config.name, tool, (candidate) => names.has(candidate) || taken(candidate));
    names.add(name);
    return name;
  };
  const parallel = config.supportsParallelToolCalls;
  const definitions: ToolDefinition[] = tools.map((tool) => {
    const name = nameFor(tool.name);
    return {
      name,
      toolset,
      description: describe(config, tool.description ?? tool.annotations?.title, `The ${tool.name} tool`),
      parameters: argumentSchema(tool.inputSchema),
      // Read-only tools (and every tool of a server that opted in) may run alongside other read-only calls.
      readOnly: tool.annotations?.readOnlyHint === true || parallel,
      approval: (args) => approvalFor(config, name, tool, args),
      handler: async (args, context) => {
        const result = await onServer(server, name, context, (c) => c.callTool(tool.name, args, callOptions(config, context)));
        const text = callResultText(result);
        if (result.isError) throw new Error(clipError(text));
        return text;
      },
    };
  });
  const wrapper = (
    tool: string,
    description: string,
    parameters: Record<string, unknown>,
    handler: (args: ToolArgs, context: ToolContext, name: string) => Promise<string>,
  ): ToolDefinition => {
    const name = nameFor(tool);
    return {
      name,
      toolset,
      description: describe(config, description, description),
      parameters,
      readOnly: true,
      approval: (args) => approvalFor(config, name, null, args),
      handler: (args, context) => handler(args, context, name),
    };
  };
  const none = { type: 'object', properties: {} };
  if (config.tools.resources && capabilities.resources) {
    definitions.push(
      wrapper('list_resources', 'List the resources this MCP server offers (uri, name, description)', none, async (_args, context, name) => {
        const resources = await onServer(server, name, context, (c) => c.listResources(callOptions(config, context)));
        if (resources.length === 0) return '(the server has no resources)';
        return resources.map((r) => `${r.uri}${r.name ? ` — ${r.name}` : ''}${r.mimeType ? ` (${r.mimeType})` : ''}${r.description ? `: ${r.description}` : ''}`).join('\n');
      }),
      wrapper(
        'read_resource',
        'Read one resource of this MCP server by its uri',
        { type: 'object', properties: { uri: { type: 'string', description: 'The resource uri (from list_resources)' } }, required: ['uri'] },
        async (args, context, name) => readResourceText(await onServer(server, name, context, (c) => c.readResource(String(args.uri), callOptions(config, context)))),
      ),
    );
  }
  if (config.tools.prompts && capabilities.prompts) {
    definitions.push(
      wrapper('list_prompts', 'List the prompts this MCP server offers, with their arguments', none, async (_args, context, name) => {
        const prompts = await onServer(server, name, context, (c) => c.listPrompts(callOptions(config, context)));
        if (prompts.length === 0) return '(the server has no prompts)';
        return prompts
          .map((p) => {
            const params = (p.arguments ?? []).map((a) => `${a.name}${a.required ? '' : '?'}`).join(', ');
            return `${p.name}(${params})${p.description ? `: ${p.description}` : ''}`;
          })
          .join('\n');
      }),
      wrapper(
        'get_prompt',
        'Get one prompt of this MCP server, filled in with its arguments',
        {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'The prompt name (from list_prompts)' },
            arguments: { type: 'object', description: 'The prompt arguments, as strings', additionalProperties: { type: 'string' } },
          },
          required: ['name'],
        },
        async (args, context, name) => {
          const given = args.arguments && typeof args.arguments === 'object' ? (args.arguments as Record<string, unknown>) : {};
          const strings = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
          return promptText(await onServer(server, name, context, (c) => c.getPrompt(String(args.name), strings, callOptions(config, context))));
        },
      ),
    );
  }
  return definitions;
}
