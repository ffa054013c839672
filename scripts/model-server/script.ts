/**
 * A script tells the scripted model server how to answer each model request (OpenAI chat completions or
 * Anthropic messages, whichever arrives), in order.
 * Scripts come from YAML/JSON files (JSON is YAML) or from objects built in tests; either way they
 * are validated here so a typo fails loudly with the turn index and field, not as an odd stream.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';
const FINISH_REASONS: readonly FinishReason[] = ['stop', 'length', 'tool_calls', 'content_filter', 'function_call'];

export interface ScriptedToolCall {
  /** Default `call_<n>`, numbered across the server's lifetime so ids stay unique when a script loops. */
  id?: string;
  name: string;
  /** An object is serialized with JSON.stringify; a string is sent verbatim (it may be invalid JSON on purpose). */
  arguments: Record<string, unknown> | string;
  /** How many `function.arguments` deltas follow the header delta (default 3). */
  pieces?: number;
}

export interface ScriptedError {
  /** HTTP status, 400–599. */
  status: number;
  message?: string;
  /** OpenAI error `type`; defaults from the status (e.g. 429 → `rate_limit_exceeded`). */
  type?: string;
  /** Seconds, sent as the `Retry-After` header. */
  retry_after?: number;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  /** Anthropic route only: reported beside `input_tokens` (which is `prompt_tokens`), as the API does. */
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

/** Answers exactly one request. */
export interface Turn {
  text?: string;
  /** Explicit content deltas; when `text` is also given it must equal their concatenation. */
  chunks?: string[];
  /** Characters per streamed content/reasoning delta (default 8). */
  chunk_size?: number;
  /** Streamed before the text as `delta.reasoning_content`. */
  reasoning?: string;
  tool_calls?: ScriptedToolCall[];
  finish_reason?: FinishReason;
  usage?: Usage;
  error?: ScriptedError;
  /** Wait before the response starts. */
  delay_ms?: number;
  /** Wait between streamed frames. */
  chunk_delay_ms?: number;
  /** Send this many SSE frames (OpenAI's role frame and Anthropic's `message_start` and `ping` count), then hold the connection open silently. */
  stall_after?: number;
}

export interface Script {
  /** Reported by `/v1/models`; default `scripted-model`. */
  model?: string;
  /** Start over when the turns run out instead of answering 500. */
  loop?: boolean;
  turns: Turn[];
  /**
   * Answers for requests whose last message contains `when_last_message_contains`, checked before the
   * sequential turns and not consuming them: e.g. a context-summary call arriving at an unknown moment.
   */
  on_match?: { when_last_message_contains: string; turn: Turn }[];
}

export const DEFAULT_MODEL = 'scripted-model';
export const DEFAULT_CHUNK_SIZE = 8;
export const DEFAULT_TOOL_CALL_PIECES = 3;

/** A script that cannot be used; the message names the source, turn (0-based, like the field paths) and field. */
export class ScriptError extends Error {
  override name = 'ScriptError';
}

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNonNegativeInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isPositiveInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0;
const isNonNegativeNumber = (v: unknown): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0;

const TURN_FIELDS = [
  'text', 'chunks', 'chunk_size', 'reasoning', 'tool_calls', 'finish_reason', 'usage', 'error',
  'delay_ms', 'chunk_delay_ms', 'stall_after',
];
const TOOL_CALL_FIELDS = ['id', 'name', 'arguments', 'pieces'];
const ERROR_FIELDS = ['status', 'message', 'type', 'retry_after'];
const USAGE_FIELDS = ['prompt_tokens', 'completion_tokens'];
const OPTIONAL_USAGE_FIELDS = ['cache_read_input_tokens', 'cache_creation_input_tokens'];
const SCRIPT_FIELDS = ['model', 'loop', 'turns', 'on_match'];

/** Validates a parsed script. `origin` (e.g. a file name) prefixes error messages. */
export function validateScript(value: unknown, origin?: string): Script {
  const fail = (where: string, problem: string): never => {
    throw new ScriptError(`${origin ? `${origin}: ` : ''}${where}: ${problem}`);
  };
  if (!isObject(value)) fail('script', 'must be a mapping with a `turns` list');
  const root = value as Obj;
  rejectUnknown(root, SCRIPT_FIELDS, (f) => fail('script', `unknown field \`${f}\``));
  if (root.model !== undefined && (typeof root.model !== 'string' || root.model === '')) {
    fail('script', '`model` must be a non-empty string');
  }
  if (root.loop !== undefined && typeof root.loop !== 'boolean') fail('script', '`loop` must be true or false');
  if (!Array.isArray(root.turns) || root.turns.length === 0) fail('script', '`turns` must be a non-empty list');
  (root.turns as unknown[]).forEach((turn, i) => validateTurn(turn, (problem) => fail(`turn ${i}`, problem)));
  if (root.on_match !== undefined) {
    if (!Array.isArray(root.on_match)) fail('script', '`on_match` must be a list');
    (root.on_match as unknown[]).forEach((rule, i) => {
      const where = `on_match[${i}]`;
      if (!isObject(rule)) return fail(where, 'must be a mapping with `when_last_message_contains` and `turn`');
      const r = rule as Obj;
      if (typeof r.when_last_message_contains !== 'string' || r.when_last_message_contains === '') {
        fail(where, '`when_last_message_contains` must be a non-empty string');
      }
      validateTurn(r.turn, (problem) => fail(`${where}.turn`, problem));
    });
  }
  return root as unknown as Script;
}

function rejectUnknown(obj: Obj, known: string[], fail: (field: string) => void): void {
  for (const key of Object.keys(obj)) if (!known.includes(key)) fail(key);
}

function validateTurn(value: unknown, fail: (problem: string) => never): void {
  if (!isObject(value)) fail('must be a mapping');
  const t = value as Obj;
  rejectUnknown(t, TURN_FIELDS, (f) => fail(`unknown field \`${f}\``));

  if (t.text !== undefined && typeof t.text !== 'string') fail('`text` must be a string');
  if (t.reasoning !== undefined && typeof t.reasoning !== 'string') fail('`reasoning` must be a string');
  if (t.chunks !== undefined) {
    if (!Array.isArray(t.chunks)) fail('`chunks` must be a list of strings');
    (t.chunks as unknown[]).forEach((c, j) => {
      if (typeof c !== 'string' || c === '') fail(`\`chunks[${j}]\` must be a non-empty string`);
    });
    if (t.text !== undefined && (t.chunks as string[]).join('') !== t.text) {
      fail('`chunks` must concatenate to `text` when both are given');
    }
  }
  if (t.chunk_size !== undefined && !isPositiveInt(t.chunk_size)) fail('`chunk_size` must be a positive integer');

  if (t.tool_calls !== undefined) {
    if (!Array.isArray(t.tool_calls)) fail('`tool_calls` must be a list');
    (t.tool_calls as unknown[]).forEach((call, j) => validateToolCall(call, `tool_calls[${j}]`, fail));
  }
  if (t.finish_reason !== undefined && !FINISH_REASONS.includes(t.finish_reason as FinishReason)) {
    fail(`\`finish_reason\` must be one of ${FINISH_REASONS.join(', ')}`);
  }
  if (t.usage !== undefined) {
    if (!isObject(t.usage)) fail('`usage` must be a mapping with `prompt_tokens` and `completion_tokens`');
    const u = t.usage as Obj;
    rejectUnknown(u, [...USAGE_FIELDS, ...OPTIONAL_USAGE_FIELDS], (f) => fail(`unknown field \`usage.${f}\``));
    for (const f of USAGE_FIELDS) {
      if (!isNonNegativeInt(u[f])) fail(`\`usage.${f}\` must be a non-negative integer`);
    }
    for (const f of OPTIONAL_USAGE_FIELDS) {
      if (u[f] !== undefined && !isNonNegativeInt(u[f])) fail(`\`usage.${f}\` must be a non-negative integer`);
    }
  }
  if (t.error !== undefined) {
    validateError(t.error, fail);
    const mixed = ['text', 'chunks', 'reasoning', 'tool_calls', 'stall_after'].find((f) => t[f] !== undefined);
    if (mixed) fail(`\`error\` cannot be combined with \`${mixed}\` (an error turn sends no completion)`);
  }
  for (const f of ['delay_ms', 'chunk_delay_ms']) {
    if (t[f] !== undefined && !isNonNegativeNumber(t[f])) fail(`\`${f}\` must be a non-negative number`);
  }
  if (t.stall_after !== undefined && !isNonNegativeInt(t.stall_after)) {
    fail('`stall_after` must be a non-negative integer');
  }
}

function validateToolCall(value: unknown, at: string, fail: (problem: string) => never): void {
  if (!isObject(value)) fail(`\`${at}\` must be a mapping with \`name\` and \`arguments\``);
  const c = value as Obj;
  rejectUnknown(c, TOOL_CALL_FIELDS, (f) => fail(`unknown field \`${at}.${f}\``));
  if (c.id !== undefined && (typeof c.id !== 'string' || c.id === '')) fail(`\`${at}.id\` must be a non-empty string`);
  if (typeof c.name !== 'string') fail(`\`${at}.name\` must be a string`);
  if (c.name === '') fail(`\`${at}.name\` must not be empty`);
  if (!isObject(c.arguments) && typeof c.arguments !== 'string') {
    fail(`\`${at}.arguments\` must be a mapping or a string`);
  }
  if (c.pieces !== undefined && !isPositiveInt(c.pieces)) fail(`\`${at}.pieces\` must be a positive integer`);
}

function validateError(value: unknown, fail: (problem: string) => never): void {
  if (!isObject(value)) fail('`error` must be a mapping with a `status`');
  const e = value as Obj;
  rejectUnknown(e, ERROR_FIELDS, (f) => fail(`unknown field \`error.${f}\``));
  if (!Number.isInteger(e.status) || (e.status as number) < 400 || (e.status as number) > 599) {
    fail('`error.status` must be an HTTP error status (400–599)');
  }
  if (e.message !== undefined && typeof e.message !== 'string') fail('`error.message` must be a string');
  if (e.type !== undefined && typeof e.type !== 'string') fail('`error.type` must be a string');
  if (e.retry_after !== undefined && !isNonNegativeNumber(e.retry_after)) {
    fail('`error.retry_after` must be a non-negative number of seconds');
  }
}

/** Reads and validates a YAML or JSON script file. */
export function loadScript(path: string): Script {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ScriptError(`${path}: cannot read script: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (err) {
    throw new ScriptError(`${path}: not valid YAML/JSON: ${(err as Error).message}`);
  }
  return validateScript(parsed, path);
}
