/**
 * The scripted model: a real HTTP server speaking the OpenAI chat-completions wire (`/v1/chat/completions`)
 * and Anthropic's Messages wire (`/v1/messages`), answering each request with the next turn of one script.
 * It is the only fake in the test suites, so it stays faithful to the wire (SSE framing, chunk shapes,
 * error bodies, headers) and never hangs a test on close().
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_MODEL, loadScript, validateScript } from './script.ts';
import type { Script, Turn } from './script.ts';
import {
  anthropicErrorBody,
  anthropicEvents,
  anthropicMessageBody,
  anthropicUsage,
  checkAnthropicRequest,
  checkAnthropicSequence,
  sseFrame,
} from './anthropicWire.ts';
import { checkChatSequence, completionBody, errorBody, estimateUsage, streamChunks } from './wire.ts';

export interface RecordedRequest {
  method: string;
  /** Without the query string. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON; `undefined` for an empty body; the raw text when it is not JSON. */
  body: unknown;
}

export interface ModelServerOptions {
  /** Default 0: a free port chosen by the OS. */
  port?: number;
  /** One line per request and per notable event (disconnects, stalls); the CLI sends these to stderr. */
  log?: (line: string) => void;
  /**
   * Refuse (HTTP 400, as the real APIs do) a request whose tool calls and tool results do not pair up.
   * Default true: a client that sends such a history is broken against every real provider.
   */
  validateSequences?: boolean;
}

export interface ModelServer {
  /** `http://127.0.0.1:PORT`, what an Anthropic client takes as `baseURL`. */
  url: string;
  /** `http://127.0.0.1:PORT/v1`, what an OpenAI client takes as `baseURL`. */
  baseUrl: string;
  port: number;
  /** Every request received, in order of arrival. */
  requests: RecordedRequest[];
  /** Model requests (either wire) answered from a turn (error turns included). */
  readonly served: number;
  /** Stops listening and ends every open connection, stalled streams included. */
  close(): Promise<void>;
}

type Body = Record<string, unknown>;

/** What differs between the two wires; the server shares everything else (turns, delays, errors, stalls). */
interface Dialect {
  path: string;
  /** A request the real API would refuse before generating anything. */
  check(body: Body, headers: IncomingMessage['headers']): { status: number; message: string; param?: string } | undefined;
  errorBody(status: number, message: string, type?: string, code?: string | null, param?: string): object;
  toolCallIdPrefix: string;
  /** The SSE frames of a streamed answer, or the JSON of a non-streamed one. */
  reply(turn: Turn, body: Body, ids: { response: number; toolCallIds: string[] }): { frames: string[] } | { json: object };
}

export async function startModelServer(source: Script | string, options: ModelServerOptions = {}): Promise<ModelServer> {
  const script = typeof source === 'string' ? loadScript(source) : validateScript(source);
  const log = options.log ?? (() => {});
  const validateSequences = options.validateSequences ?? true;
  const scriptModel = script.model ?? DEFAULT_MODEL;
  const startedAt = Math.floor(Date.now() / 1000);
  const requests: RecordedRequest[] = [];
  // Aborted by close(): cancels pending delays and stops streams mid-write.
  const shutdown = new AbortController();
  let served = 0;
  let toolCallCount = 0;
  let responseCount = 0;

  const nextTurn = (): { turn: Turn; index: number } | undefined => {
    if (served >= script.turns.length && !script.loop) return undefined;
    const index = served % script.turns.length;
    served++;
    return { turn: script.turns[index], index };
  };

  /** An `on_match` rule for this request, if any; it does not use up a sequential turn. */
  const matchTurn = (body: Body): { turn: Turn; index: number } | undefined => {
    const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
    const last = messages.at(-1)?.content;
    const text = typeof last === 'string' ? last : JSON.stringify(last ?? '');
    const rule = script.on_match?.find((r) => text.includes(r.when_last_message_contains));
    return rule ? { turn: rule.turn, index: -1 } : undefined;
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log(`error while answering ${req.method} ${req.url}: ${(err as Error).stack ?? String(err)}`);
      if (!res.headersSent && !res.destroyed) sendJson(res, 500, errorBody(500, `scripted model server: ${String(err)}`));
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on('error', (err) => log(`response error on ${req.method} ${req.url}: ${err.message}`));
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const raw = await readBody(req);
    let body: unknown;
    let bodyIsJson = true;
    if (raw !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
        bodyIsJson = false;
      }
    }
    requests.push({ method, path, headers: req.headers, body });

    const dialect = dialects.find((d) => d.path === path);
    if (method === 'POST' && dialect) {
      if (!bodyIsJson || typeof body !== 'object' || body === null || Array.isArray(body)) {
        log(`${method} ${path} → 400 (body is not a JSON object)`);
        return sendJson(res, 400, dialect.errorBody(400, 'The request body must be a JSON object.'));
      }
      return answer(dialect, body as Body, req, res);
    }
    if (method === 'GET' && path === '/v1/models') {
      log(`${method} ${path}`);
      return sendJson(res, 200, {
        object: 'list',
        data: [{ id: scriptModel, object: 'model', created: startedAt, owned_by: 'scripted-model-server' }],
      });
    }
    log(`${method} ${path} → 404`);
    sendJson(res, 404, errorBody(404, `Unknown request URL: ${method} ${path}. Please check the URL for typos.`, 'invalid_request_error', 'unknown_url'));
  }

  const openai: Dialect = {
    path: '/v1/chat/completions',
    check: (body) => {
      if (!Array.isArray(body.messages)) return { status: 400, message: "'messages' is a required property and must be an array." };
      const problem = validateSequences ? checkChatSequence(body.messages) : undefined;
      return problem && { status: 400, ...problem };
    },
    errorBody,
    toolCallIdPrefix: 'call_',
    reply(turn, body, ids) {
      const stream = body.stream === true;
      const options = body.stream_options as { include_usage?: unknown } | null | undefined;
      const ctx = {
        id: `chatcmpl-scripted-${ids.response}`,
        created: Math.floor(Date.now() / 1000),
        model: typeof body.model === 'string' && body.model !== '' ? body.model : scriptModel,
        toolCallIds: ids.toolCallIds,
        usage: estimateUsage(turn, body),
        includeUsage: stream && options?.include_usage === true,
      };
      if (!stream) return { json: completionBody(turn, ctx) };
      return { frames: [...streamChunks(turn, ctx).map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'] };
    },
  };

  const anthropic: Dialect = {
    path: '/v1/messages',
    check: (body, headers) => checkAnthropicRequest(body, headers) ?? (validateSequences ? checkAnthropicSequence(body.messages as unknown[]) : undefined),
    errorBody: (status, message, type) => anthropicErrorBody(status, message, type),
    toolCallIdPrefix: 'toolu_scripted_',
    reply(turn, body, ids) {
      const ctx = {
        id: `msg_scripted_${ids.response}`,
        model: body.model as string,
        toolCallIds: ids.toolCallIds,
        usage: anthropicUsage(turn, body),
      };
      if (body.stream !== true) return { json: anthropicMessageBody(turn, ctx) };
      return { frames: anthropicEvents(turn, ctx).map(sseFrame) };
    },
  };
  const dialects = [openai, anthropic];

  async function answer(dialect: Dialect, body: Body, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const label = `${req.method} ${dialect.path}`;
    const problem = dialect.check(body, req.headers);
    if (problem) {
      log(`${label} → ${problem.status} (${problem.message})`);
      return sendJson(res, problem.status, dialect.errorBody(problem.status, problem.message, undefined, undefined, problem.param));
    }
    const next = matchTurn(body) ?? nextTurn();
    if (!next) {
      log(`${label} → 500 (script exhausted)`);
      const message = `scripted model server: script exhausted: it has ${script.turns.length} turn(s), ` +
        `\`loop\` is off, and it has already served ${served} request(s).`;
      return sendJson(res, 500, dialect.errorBody(500, message, undefined, 'script_exhausted'));
    }
    const { turn, index } = next;
    const stream = body.stream === true;
    log(`${label} → turn ${index}${stream ? ' (stream)' : ''}`);

    // Aborted when the client goes away before the response is complete, or on close().
    const gone = new AbortController();
    res.on('close', () => {
      if (res.writableFinished) return;
      gone.abort();
      if (!shutdown.signal.aborted) log(`client disconnected during turn ${index}`);
    });
    const signal = AbortSignal.any([gone.signal, shutdown.signal]);

    if (turn.delay_ms && !(await pause(turn.delay_ms, signal))) return;

    if (turn.error) {
      const { status, message, type, retry_after: retryAfter } = turn.error;
      const headers: Record<string, string> = retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {};
      return sendJson(res, status, dialect.errorBody(status, message ?? `Scripted error (HTTP ${status}).`, type), headers);
    }

    const toolCallIds = (turn.tool_calls ?? []).map((c) => c.id ?? `${dialect.toolCallIdPrefix}${++toolCallCount}`);
    const reply = dialect.reply(turn, body, { response: ++responseCount, toolCallIds });
    if ('json' in reply) {
      // A non-streamed stall is a request that is never answered.
      if (turn.stall_after !== undefined) return log(`turn ${index}: stalled (no response)`);
      return sendJson(res, 200, reply.json);
    }

    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-request-id': `req_scripted_${responseCount}`,
      'request-id': `req_scripted_${responseCount}`,
    });
    res.flushHeaders();
    const { frames } = reply;
    const limit = turn.stall_after ?? frames.length;
    for (let i = 0; i < Math.min(limit, frames.length); i++) {
      if (i > 0 && turn.chunk_delay_ms && !(await pause(turn.chunk_delay_ms, signal))) return;
      if (signal.aborted || res.destroyed) return;
      if (!res.write(frames[i]) && !(await drained(res, signal))) return;
    }
    // A stall holds the connection open until the client gives up or close() ends it.
    if (turn.stall_after !== undefined) return log(`turn ${index}: stalled after ${limit} frame(s)`);
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => log(`server error: ${err.message}`));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    baseUrl: `${url}/v1`,
    port,
    requests,
    get served() {
      return served;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        shutdown.abort();
        // The callback's error only says the server was not listening, which is the goal anyway.
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': `req_scripted_${Date.now().toString(36)}`,
    ...headers,
  });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Waits for the socket buffer to drain; false if the response is abandoned first. */
async function drained(res: ServerResponse, signal: AbortSignal): Promise<boolean> {
  try {
    await once(res, 'drain', { signal });
    return true;
  } catch {
    return false;
  }
}
