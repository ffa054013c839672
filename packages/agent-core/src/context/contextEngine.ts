import { ErrorCode } from '../contract/errorCodes.ts';
import { HermesError } from '../contract/errors.ts';
import type { ChatMessage, ToolSchema } from '../providers/types.ts';

/**
 * What a plugin can replace (`registerContextEngine`): the policy that keeps a long session's prompt
 * inside the model's window. The host owns everything else: it stores the full transcript untouched,
 * keeps the `messages` a compression returns as the session's working prompt (appending new messages
 * to it), and calls `compress` again on that working prompt when it grows, so an engine sees its own
 * earlier output and must accept it.
 *
 * Kept small on purpose: two calls, plain data in and out, the model reachable only through the
 * injected `summarize`, so an engine needs no provider, config or session access to do its job.
 */
export interface ContextEngine {
  /** Shown in logs and `/status`; the built-in one is `compressor`. */
  readonly name: string;
  /** Whether the prompt about to be sent should be compressed first. Synchronous and cheap: called before every model call. */
  shouldCompress(input: ShouldCompressInput): boolean;
  /**
   * A shorter prompt with the same meaning. Must return a valid OpenAI sequence: the input's system
   * message first, every tool result directly after the assistant message that called it, every call
   * answered. Returns the input unchanged (`removed: 0`) when there is nothing to compress. Rejects when
   * `summarize` does or `signal` aborts; the host then sends the uncompressed prompt or stops the turn.
   */
  compress(input: CompressInput): Promise<CompressionResult>;
}

export interface ShouldCompressInput {
  /** The full prompt about to be sent: `[system, ...history, latest message]`. */
  messages: readonly ChatMessage[];
  /** The tool schemas sent with it; they take room in the window too. */
  tools: readonly ToolSchema[];
  /** The model's context window in tokens (`resolveContextWindow`). */
  contextMax: number;
  /** Fraction of `contextMax` at which to compress, in (0, 1]; config, default `DEFAULT_COMPRESSION_THRESHOLD`. */
  threshold: number;
}

/**
 * Asks the model for text. The host wires it to the session's provider with tools disabled and returns
 * the reply's text; it throws on provider failure and rejects with the signal's reason on abort.
 */
export type Summarize = (prompt: ChatMessage[], signal: AbortSignal) => Promise<string>;

export interface CompressInput {
  /** The prompt to compress, as given to `shouldCompress`. Not modified. */
  messages: readonly ChatMessage[];
  /** The tool schemas, only so the token counts in the result match `shouldCompress`. */
  tools?: readonly ToolSchema[];
  /** The model's context window in tokens. */
  contextMax: number;
  /** What the user wants kept in detail (`/compress <topic>`); engines pass it to the summary prompt. */
  focusTopic?: string;
  summarize: Summarize;
  /** Aborts the summary call (the user interrupted). */
  signal: AbortSignal;
}

export interface CompressionResult {
  /** The prompt to send (and keep as the working prompt). The input array itself when `removed` is 0. */
  messages: ChatMessage[];
  /** How many input messages the summary replaced; 0 means nothing changed. */
  removed: number;
  /** Estimated prompt tokens (messages plus tools) before and after. */
  beforeTokens: number;
  afterTokens: number;
  /** The summary text the model wrote, or null when nothing changed. */
  summary: string | null;
}

/** Config `compression.threshold` when unset: compress once half the window is used, as Hermes does. */
export const DEFAULT_COMPRESSION_THRESHOLD = 0.5;

/**
 * Why `value` (from a plugin, so possibly plain JavaScript) is not a `ContextEngine`, or null when it is.
 * For `registerContextEngine`, which refuses a bad engine with this reason instead of failing mid-session.
 */
export function contextEngineProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'a context engine must be an object';
  const engine = value as Record<string, unknown>;
  if (typeof engine.name !== 'string' || engine.name.trim() === '') return 'a context engine needs a non-empty string `name`';
  for (const method of ['shouldCompress', 'compress']) {
    if (typeof engine[method] !== 'function') return `context engine "${engine.name}" has no \`${method}\` method`;
  }
  return null;
}

/** The summary call failed to produce something usable; the prompt was left as it was (wire code 5032). */
export class ContextCompressionError extends HermesError {
  constructor(message: string) {
    super(ErrorCode.AgentUnavailable, message);
    this.name = 'ContextCompressionError';
  }
}
