/**
 * One live connection to an MCP server, on the official SDK. Loaded only by dynamic import from the
 * manager (connectionLoader.ts): the SDK (with ajv and zod schemas) is not part of the backend's start.
 * stdio servers run through StdioChildTransport; URL servers speak Streamable HTTP, falling back to
 * the older SSE transport when the server refuses it (the SDK's documented client fallback).
 */
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ToolSchema, type CallToolResult, type GetPromptResult, type Prompt, type ReadResourceResult, type Resource, type Tool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import { ErrorCode as HermesErrorCode } from '../contract/errorCodes.ts';
import { HermesError } from '../contract/errors.ts';
import type { McpServerConfig } from './mcpConfig.ts';
import { McpRequestError, withStderr } from './requestError.ts';
import { StdioChildTransport } from './stdioTransport.ts';

export type { Tool as McpTool };

/** A tool the server listed that cannot be offered, and why (for one warning naming it). */
export interface SkippedTool {
  name: string;
  why: string;
}

/** tools/list pages read loosely: each tool is checked alone, so one malformed tool does not fail the whole list. */
const LooseToolsPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/** What connect needs: the server's config with `env` (the whole environment of a stdio server) and `headers` resolved. */
export type ConnectSpec = Pick<McpServerConfig, 'name' | 'command' | 'args' | 'env' | 'cwd' | 'url' | 'headers'> & {
  connectTimeoutMs: number;
  /** Ends the attempt at once (the server was removed or edited by a reload): a stdio child is killed. */
  signal?: AbortSignal;
};

export interface ConnectionEvents {
  /** The server said its tool list changed (`notifications/tools/list_changed`). */
  onToolsChanged(): void;
  /** The connection ended without close() (the process exited, the stream broke): why, for the status. */
  onLost(reason: string): void;
  /** Something went wrong that does not end the connection (a line on stdout that is not JSON-RPC): for the log. */
  onError(message: string): void;
}

export interface CallOptions {
  timeoutMs: number;
  signal: AbortSignal;
}

/** Thrown by connect: what failed (with the last lines of a stdio server's stderr). */
class McpConnectError extends HermesError {
  override name = 'McpConnectError';
  constructor(message: string) {
    // An outside server the operator configured failed: 5xxx, so the backend log shows it too.
    super(HermesErrorCode.AgentUnavailable, message);
  }
}

const CLIENT_INFO = { name: 'hermes', version: '0.1.0' };

const isTimeout = (error: unknown) => error instanceof McpError && error.code === ErrorCode.RequestTimeout;

export class McpConnection {
  private closedOnPurpose = false;
  private lostReason: string | null = null;

  private constructor(
    private readonly client: Client,
    private readonly transportInUse: Transport,
    readonly transport: 'stdio' | 'http' | 'sse',
    events: ConnectionEvents,
  ) {
    client.onclose = () => {
      if (this.closedOnPurpose) return;
      this.lostReason = this.describeLoss();
      events.onLost(this.lostReason);
    };
  }

  static async connect(spec: ConnectSpec, events: ConnectionEvents): Promise<McpConnection> {
    if (spec.command) {
      const transport = new StdioChildTransport({ command: spec.command, args: spec.args, env: spec.env, ...(spec.cwd ? { cwd: spec.cwd } : {}) });
      const client = newClient(events);
      try {
        await connectWithin(client, transport, spec);
      } catch (error) {
        if (spec.signal?.aborted) {
          await transport.close().catch(() => undefined);
          throw new McpConnectError('the connection attempt was abandoned (the server was removed or changed)');
        }
        // Worded before close(), whose SIGTERM would otherwise be the reason given.
        const failure = new McpConnectError(stdioFailure(spec, error, transport));
        await transport.close().catch(() => undefined);
        throw failure;
      }
      return new McpConnection(client, transport, 'stdio', events);
    }
    const url = new URL(spec.url!);
    const requestInit = { headers: spec.headers };
    const http = new StreamableHTTPClientTransport(url, { requestInit });
    const httpClient = newClient(events);
    try {
      await connectWithin(httpClient, http, spec);
      return new McpConnection(httpClient, http, 'http', events);
    } catch (httpError) {
      await http.close().catch(() => undefined);
      if (spec.signal?.aborted) throw new McpConnectError('the connection attempt was abandoned (the server was removed or changed)');
      // A server that does not answer at all would not answer SSE either, and the time is spent.
      if (isTimeout(httpError)) throw new McpConnectError(`${spec.url} did not answer initialize within ${spec.connectTimeoutMs / 1000} s (mcp_servers.${spec.name}.connect_timeout)`);
      // Refused credentials: SSE would be refused the same way.
      if (httpError instanceof StreamableHTTPError && (httpError.code === 401 || httpError.code === 403)) {
        throw new McpConnectError(`${spec.url} refused the request (HTTP ${httpError.code}): ${errorText(httpError)}. Check the credentials in mcp_servers.${spec.name}.headers`);
      }
      const sse = new SSEClientTransport(url, { requestInit, eventSourceInit: { fetch: (input, init) => fetch(input, { ...init, headers: { ...spec.headers, ...headersOf(init?.headers) } }) } });
      const sseClient = newClient(events);
      try {
        await connectWithin(sseClient, sse, spec);
        return new McpConnection(sseClient, sse, 'sse', events);
      } catch (sseError) {
        await sse.close().catch(() => undefined);
        throw new McpConnectError(`${spec.url}: Streamable HTTP failed (${errorText(httpError)}) and so did SSE (${errorText(sseError)})`);
      }
    }
  }

  /** What the server offers beyond tools. */
  get capabilities(): { resources: boolean; prompts: boolean } {
    const caps = this.client.getServerCapabilities() ?? {};
    return { resources: caps.resources !== undefined, prompts: caps.prompts !== undefined };
  }

  /**
   * Every tool the server lists. Not the SDK's listTools: its strict parse of the whole result fails the
   * server for one tool whose schema lacks `type: "object"`. Here such a schema is given the type, and a
   * tool that still does not parse is skipped, saying why.
   */
  async listTools(timeoutMs: number): Promise<{ tools: Tool[]; skipped: SkippedTool[] }> {
    const listed = await allPages(
      (cursor) => this.client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, LooseToolsPage, { timeout: timeoutMs }),
      (page) => page.tools,
    );
    const tools: Tool[] = [];
    const skipped: SkippedTool[] = [];
    for (const item of listed) {
      const parsed = ToolSchema.safeParse(withObjectType(item));
      if (parsed.success) tools.push(parsed.data);
      else skipped.push({ name: nameOf(item), why: parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || 'the tool'}: ${issue.message}`).join('; ') });
    }
    // The SDK's listTools would also cache output schemas (callTool then checks structured results
    // against them): that cache is private; results reach the model as text either way.
    return { tools, skipped };
  }

  /** A tool call; timeout and abort cancel it at the server (notifications/cancelled). Throws McpRequestError. */
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    return this.request(options, (o) => this.client.callTool({ name, arguments: args }, undefined, o) as Promise<CallToolResult>);
  }

  listResources(options: CallOptions): Promise<Resource[]> {
    return this.request(options, (o) => allPages((cursor) => this.client.listResources(cursor ? { cursor } : undefined, o), (page) => page.resources));
  }

  readResource(uri: string, options: CallOptions): Promise<ReadResourceResult> {
    return this.request(options, (o) => this.client.readResource({ uri }, o));
  }

  listPrompts(options: CallOptions): Promise<Prompt[]> {
    return this.request(options, (o) => allPages((cursor) => this.client.listPrompts(cursor ? { cursor } : undefined, o), (page) => page.prompts));
  }

  getPrompt(name: string, args: Record<string, string>, options: CallOptions): Promise<GetPromptResult> {
    return this.request(options, (o) => this.client.getPrompt({ name, arguments: args }, o));
  }

  /** Runs a request and words its failure by kind: timed out, connection lost, aborted, or the server's own error. */
  private async request<T>(options: CallOptions, run: (o: { timeout: number; signal: AbortSignal }) => Promise<T>): Promise<T> {
    try {
      return await run({ timeout: options.timeoutMs, signal: options.signal });
    } catch (error) {
      if (options.signal.aborted) throw new McpRequestError('aborted', 'the request was cancelled');
      if (isTimeout(error)) throw new McpRequestError('timeout', `no answer within ${options.timeoutMs / 1000} s; the request was cancelled`);
      if (this.lostReason !== null || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
        throw new McpRequestError('closed', `the server stopped during the request: ${this.lostReason ?? 'the connection closed'}`);
      }
      // fetch failures of a URL server (it went away): the connection is as good as lost.
      if (this.transport !== 'stdio' && !(error instanceof McpError)) throw new McpRequestError('closed', `the server could not be reached: ${errorText(error)}`);
      throw new McpRequestError('other', errorText(error));
    }
  }

  /** Closes the client; a stdio server's whole process group is ended. */
  async close(): Promise<void> {
    this.closedOnPurpose = true;
    await this.client.close();
  }

  private describeLoss(): string {
    const transport = this.transportInUse;
    if (!(transport instanceof StdioChildTransport)) return 'the connection to the server closed';
    const exit = transport.exitStatus;
    const how = !exit ? 'closed its output' : exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    return withStderr(`the server process ${how}`, transport.stderrTail);
  }
}

/** Every item of a paginated list (tools/list, resources/list, prompts/list), following `nextCursor`. */
async function allPages<P extends { nextCursor?: string }, T>(page: (cursor?: string) => Promise<P>, items: (page: P) => T[]): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const next = await page(cursor);
    all.push(...items(next));
    cursor = next.nextCursor;
  } while (cursor);
  return all;
}

/** A tool whose inputSchema has no `type` (or no schema at all) takes arguments as an object: say so. */
function withObjectType(item: unknown): unknown {
  if (!item || typeof item !== 'object') return item;
  const tool = item as { inputSchema?: unknown };
  if (tool.inputSchema === undefined) return { ...tool, inputSchema: { type: 'object' } };
  if (tool.inputSchema && typeof tool.inputSchema === 'object' && !('type' in tool.inputSchema)) return { ...tool, inputSchema: { type: 'object', ...tool.inputSchema } };
  return item;
}

function nameOf(item: unknown): string {
  const name = item && typeof item === 'object' ? (item as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : '(a tool without a name)';
}

function newClient(events: ConnectionEvents): Client {
  const client = new Client(CLIENT_INFO, {
    capabilities: {},
    // Not autoRefresh: the manager lists every page itself and re-registers the tools.
    listChanged: { tools: { autoRefresh: false, debounceMs: 50, onChanged: () => events.onToolsChanged() } },
  });
  client.onerror = (error) => events.onError(errorText(error));
  return client;
}

/**
 * connect() within the time allowed: the initialize request has the timeout, and so has everything
 * before it (an SSE endpoint that never sends its first event). An abort ends the wait at once; the
 * caller closes the transport (kills the child).
 */
async function connectWithin(client: Client, transport: Transport, spec: Pick<ConnectSpec, 'connectTimeoutMs' | 'signal'>): Promise<void> {
  const timeoutMs = spec.connectTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new McpError(ErrorCode.RequestTimeout, `no answer to initialize within ${timeoutMs / 1000} s`)), timeoutMs);
    onAbort = () => reject(new Error('aborted'));
    if (spec.signal?.aborted) onAbort();
    else spec.signal?.addEventListener('abort', onAbort, { once: true });
  });
  const connecting = client.connect(transport, { timeout: timeoutMs });
  // The losing promise of the race must not be an unhandled rejection.
  connecting.catch(() => undefined);
  try {
    await Promise.race([connecting, expired]);
  } finally {
    clearTimeout(timer);
    if (onAbort) spec.signal?.removeEventListener('abort', onAbort);
  }
}

function headersOf(headers: unknown): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers) {
    const out: Record<string, string> = {};
    headers.forEach((value, name) => (out[name] = value));
    return out;
  }
  if (Array.isArray(headers)) return Object.fromEntries(headers as [string, string][]);
  return headers as Record<string, string>;
}

function errorText(error: unknown): string {
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return error.message.replace(/^MCP error -?\d+: /, '');
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}

function stdioFailure(spec: ConnectSpec, error: unknown, transport: StdioChildTransport): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' && spec.cwd && !fs.existsSync(spec.cwd)) return `its working directory ${spec.cwd} does not exist: fix mcp_servers.${spec.name}.cwd`;
  if (code === 'ENOENT') return `\`${spec.command}\` was not found${spec.cwd ? ` (cwd ${spec.cwd})` : ''}: install it or give its full path in mcp_servers.${spec.name}.command`;
  if (code === 'EACCES') return `\`${spec.command}\` cannot be run (permission denied)`;
  const exit = transport.exitStatus;
  if (exit) {
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    return withStderr(`the server process ${how} before it finished initialize`, transport.stderrTail);
  }
  if (isTimeout(error)) return withStderr(`the server did not answer initialize within ${spec.connectTimeoutMs / 1000} s (mcp_servers.${spec.name}.connect_timeout)`, transport.stderrTail);
  return withStderr(`initialize failed: ${errorText(error)}`, transport.stderrTail);
}
