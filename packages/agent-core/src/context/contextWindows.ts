/**
 * Context windows (total tokens, prompt + reply) of well-known models, matched by pattern on the model
 * id. Ids arrive in many spellings (`gpt-4o`, `openai/gpt-4o`, `us.anthropic.claude-3-5-sonnet-…`,
 * `Meta-Llama-3.1-8B-Instruct`, `llama3.1:8b`), so each pattern must start at the beginning of the id
 * or after a separator rather than at the start of the string. The first matching rule wins: specific
 * rules come before general ones.
 *
 * Where a model's native window and an extended one (YaRN, beta headers) differ, the table holds the
 * window a server gives by default, because overflowing is a hard error and compressing early is not.
 * Local servers (Ollama, llama.cpp) often run a smaller window than the model supports; config
 * `model.context_length` overrides the table for that reason.
 */
const rule = (pattern: string, tokens: number) => ({ pattern: new RegExp(`(?:^|[^a-z0-9])${pattern}`), tokens });

const RULES: ReadonlyArray<{ pattern: RegExp; tokens: number }> = [
  // OpenAI
  rule('gpt-5-chat', 128_000),
  rule('gpt-5', 400_000),
  rule('gpt-4\\.1', 1_047_576),
  rule('gpt-4\\.5', 128_000),
  rule('(?:chat)?gpt-4o', 128_000),
  rule('gpt-4-32k', 32_768),
  rule('gpt-4-(?:turbo|1106|0125|vision)', 128_000),
  rule('gpt-4(?![.\\d])', 8_192),
  rule('gpt-3\\.5-turbo', 16_385),
  rule('gpt-oss', 131_072),
  rule('o1-(?:mini|preview)', 128_000),
  rule('o[134](?:-(?:mini|pro))?(?:$|[^a-z0-9.])', 200_000),
  // Anthropic: every claude-3.x and claude-4.x (sonnet/opus/haiku) has 200k; 1M is an opt-in beta.
  rule('claude-(?:instant|2(?:\\.0)?(?![.\\d]))', 100_000),
  rule('claude', 200_000),
  // Meta Llama: 3.0 has 8k, 3.1 to 3.3 have 128k.
  rule('llama-?3\\.[1-3]', 131_072),
  rule('llama-?3', 8_192),
  // Qwen: native windows; 128k+ needs YaRN, which servers rarely enable by default.
  rule('qwen3-coder', 262_144),
  rule('qwq', 131_072),
  rule('qwen-?plus', 131_072),
  rule('qwen', 32_768),
  // DeepSeek: the API and V3/R1 models serve 128k; the first coder models had 16k.
  rule('deepseek-coder(?!-v2)', 16_384),
  rule('deepseek', 128_000),
  // Mistral
  rule('codestral-22b', 32_768),
  rule('codestral', 256_000),
  rule('mixtral-8x22b', 65_536),
  rule('(?:mistral-(?:large|medium|small|nemo)|open-mistral-nemo|ministral|devstral|pixtral|magistral)', 131_072),
  rule('(?:mistral|mixtral)', 32_768),
  // Google
  rule('gemini-1\\.5-pro', 2_097_152),
  rule('gemini-(?:1\\.0-pro|pro(?![-\\w.]))', 32_760),
  rule('gemini', 1_048_576),
  rule('gemma-?3', 131_072),
  rule('gemma', 8_192),
];

/**
 * For a model the table does not know. 128k is what most current hosted chat models offer, so it
 * neither compresses them needlessly early nor (at the default 0.5 threshold, 64k) overflows the
 * many open models served with 128k. Smaller local windows need `model.context_length`.
 */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** The table's window for `model`, or undefined when no rule matches. */
export function lookupContextWindow(model: string): number | undefined {
  const id = model.trim().toLowerCase();
  return RULES.find((r) => r.pattern.test(id))?.tokens;
}

export interface ContextWindow {
  tokens: number;
  /** Where the figure came from, so the host can log "unknown model, assuming 128k". */
  source: 'config' | 'table' | 'default';
}

/** The window to use: the config override (`model.context_length`) if set, else the table, else the default. */
export function resolveContextWindow(model: string, override?: number | null): ContextWindow {
  if (override !== undefined && override !== null) {
    if (!Number.isInteger(override) || override <= 0) {
      throw new RangeError(`model.context_length must be a positive whole number of tokens (got ${String(override)})`);
    }
    return { tokens: override, source: 'config' };
  }
  const known = lookupContextWindow(model);
  return known === undefined ? { tokens: DEFAULT_CONTEXT_WINDOW, source: 'default' } : { tokens: known, source: 'table' };
}
