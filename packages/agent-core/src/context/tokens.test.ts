import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolSchema } from '../providers/types.ts';
import { generateHistory, seededRandom } from './contextTestUtil.ts';
import { estimateMessageTokens, estimateMessagesTokens, estimatePromptTokens, estimateTextTokens } from './tokens.ts';

describe('token estimates', () => {
  it('counts about four ASCII characters per token and one per other character', () => {
    expect(estimateTextTokens('a'.repeat(400))).toBe(100);
    expect(estimateTextTokens('日本語のテキスト')).toBe(8);
    // An emoji is two UTF-16 units but one character.
    expect(estimateTextTokens('🙂🙂')).toBe(2);
    expect(estimateTextTokens('')).toBe(0);
  });

  it('never decreases as text, messages or tools are added', () => {
    const random = seededRandom(7);
    const alphabet = 'abc xyz{}"\n日🙂é';
    let text = '';
    let previous = 0;
    for (let i = 0; i < 2000; i += 1) {
      text += [...alphabet][Math.floor(random() * [...alphabet].length)];
      const now = estimateTextTokens(text);
      expect(now).toBeGreaterThanOrEqual(previous);
      previous = now;
    }
    const history = generateHistory(3, 12);
    let last = 0;
    for (let n = 0; n <= history.length; n += 1) {
      const now = estimateMessagesTokens(history.slice(0, n));
      expect(now).toBeGreaterThan(last);
      last = now;
    }
    const tool: ToolSchema = { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object' } } };
    expect(estimatePromptTokens(history, [tool])).toBeGreaterThan(estimatePromptTokens(history));
  });

  it('counts tool calls and their arguments', () => {
    const bare: ChatMessage = { role: 'assistant', content: null };
    const calling: ChatMessage = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'terminal', arguments: JSON.stringify({ command: 'x'.repeat(400) }) } }],
    };
    expect(estimateMessageTokens(calling) - estimateMessageTokens(bare)).toBeGreaterThan(100);
  });
});
