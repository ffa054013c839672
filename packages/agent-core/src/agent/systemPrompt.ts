/**
 * Built once per session and kept byte-for-byte stable across its turns, so provider prompt caches
 * hit. Anything that changes per turn belongs in the user message instead.
 */
export function buildSystemPrompt(input: { cwd: string; toolNames: string[]; now?: Date }): string {
  const date = (input.now ?? new Date()).toISOString().slice(0, 10);
  return [
    'You are Hermes, an AI agent working in the user\'s terminal. Be direct and accurate.',
    'Use the tools to inspect the project instead of guessing; say what you did and what you found.',
    `Tools available: ${input.toolNames.join(', ') || 'none'}.`,
    `Working directory: ${input.cwd}`,
    `Date: ${date}`,
  ].join('\n');
}
