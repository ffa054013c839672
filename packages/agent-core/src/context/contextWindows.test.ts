import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_WINDOW, lookupContextWindow, resolveContextWindow } from './contextWindows.ts';

describe('context windows', () => {
  it.each([
    ['gpt-4o', 128_000],
    ['gpt-4o-mini-2024-07-18', 128_000],
    ['openai/gpt-4o', 128_000],
    ['chatgpt-4o-latest', 128_000],
    ['gpt-4.1-mini', 1_047_576],
    ['gpt-4-turbo', 128_000],
    ['gpt-4-0613', 8_192],
    ['gpt-3.5-turbo', 16_385],
    ['gpt-5', 400_000],
    ['gpt-5-mini', 400_000],
    ['gpt-5-chat-latest', 128_000],
    ['gpt-oss-120b', 131_072],
    ['o1-mini', 128_000],
    ['o1', 200_000],
    ['o3-mini', 200_000],
    ['o4-mini-2025-04-16', 200_000],
    ['claude-3-5-sonnet-20241022', 200_000],
    ['claude-3-haiku-20240307', 200_000],
    ['claude-sonnet-4-20250514', 200_000],
    ['claude-opus-4-1', 200_000],
    ['us.anthropic.claude-3-7-sonnet-20250219-v1:0', 200_000],
    ['claude-2.0', 100_000],
    ['claude-2.1', 200_000],
    ['llama3:8b', 8_192],
    ['meta-llama/Meta-Llama-3-70B-Instruct', 8_192],
    ['llama3.1:8b', 131_072],
    ['meta-llama/Llama-3.3-70B-Instruct', 131_072],
    ['llama-3.1-8b-instant', 131_072],
    ['Qwen/Qwen2.5-Coder-32B-Instruct', 32_768],
    ['qwen3:8b', 32_768],
    ['qwen3-coder-480b-a35b-instruct', 262_144],
    ['qwq:32b', 131_072],
    ['deepseek-chat', 128_000],
    ['deepseek-r1:14b', 128_000],
    ['deepseek-coder:6.7b', 16_384],
    ['deepseek-coder-v2', 128_000],
    ['mistral-large-latest', 131_072],
    ['mistral:7b', 32_768],
    ['mixtral-8x22b-instruct', 65_536],
    ['codestral-latest', 256_000],
    ['gemini-1.5-pro', 2_097_152],
    ['models/gemini-2.5-flash', 1_048_576],
    ['gemini-pro', 32_760],
    ['gemma3:12b', 131_072],
    ['gemma2:9b', 8_192],
  ])('%s has %i tokens', (model, tokens) => {
    expect(lookupContextWindow(model)).toBe(tokens);
    expect(resolveContextWindow(model)).toEqual({ tokens, source: 'table' });
  });

  it('falls back to the default for unknown models and says so', () => {
    expect(lookupContextWindow('my-finetune')).toBeUndefined();
    expect(lookupContextWindow('photo1')).toBeUndefined();
    expect(resolveContextWindow('my-finetune')).toEqual({ tokens: DEFAULT_CONTEXT_WINDOW, source: 'default' });
  });

  it('prefers the configured context length and rejects nonsense', () => {
    expect(resolveContextWindow('gpt-4o', 8192)).toEqual({ tokens: 8192, source: 'config' });
    expect(resolveContextWindow('gpt-4o', null)).toEqual({ tokens: 128_000, source: 'table' });
    expect(() => resolveContextWindow('gpt-4o', 0)).toThrow(/model.context_length/);
    expect(() => resolveContextWindow('gpt-4o', 12.5)).toThrow(/positive whole number/);
  });
});
