import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolCall } from '../providers/types.ts';
import { healMessageSequence, INTERRUPTED_CALL_RESULT, validateMessageSequence } from './messageSequence.ts';

const call = (id: string): ToolCall => ({ id, type: 'function', function: { name: 'terminal', arguments: '{"command":"sleep 30"}' } });
const asks = (...ids: string[]): ChatMessage => ({ role: 'assistant', content: '', tool_calls: ids.map(call) });
const result = (id: string, content = `out ${id}`): ChatMessage => ({ role: 'tool', tool_call_id: id, content });
const user = (content: string): ChatMessage => ({ role: 'user', content });
const system: ChatMessage = { role: 'system', content: 'sys' };

describe('healMessageSequence', () => {
  it('gives a call cut off by a crash at the end of the history a synthetic result', () => {
    const messages = [system, user('run it'), asks('a')];
    const healed = healMessageSequence(messages);
    expect(healed.added).toEqual(['a']);
    expect(healed.messages).toEqual([...messages, result('a', INTERRUPTED_CALL_RESULT)]);
    expect(validateMessageSequence(messages)).not.toEqual([]);
    expect(validateMessageSequence(healed.messages)).toEqual([]);
  });

  it('answers the missing calls of a block in its place, before the next message, keeping the results it has', () => {
    const messages = [system, user('go'), asks('a', 'b', 'c'), result('b'), user('next'), { role: 'assistant', content: 'ok' } as ChatMessage];
    const healed = healMessageSequence(messages);
    expect(healed.added).toEqual(['a', 'c']);
    expect(healed.messages.map((m) => (m.role === 'tool' ? `tool:${m.tool_call_id}:${m.content === INTERRUPTED_CALL_RESULT ? 'synthetic' : 'real'}` : m.role))).toEqual([
      'system', 'user', 'assistant', 'tool:b:real', 'tool:a:synthetic', 'tool:c:synthetic', 'user', 'assistant',
    ]);
    expect(validateMessageSequence(healed.messages)).toEqual([]);
  });

  it('drops tool results that answer no call just before them, and second results for one call', () => {
    const messages = [system, user('go'), result('stray'), asks('a'), result('a'), result('a', 'again'), user('x'), result('a', 'late')];
    const healed = healMessageSequence(messages);
    expect(healed.dropped).toEqual(['stray', 'a', 'a']);
    expect(healed.added).toEqual([]);
    expect(healed.messages).toEqual([system, user('go'), asks('a'), result('a'), user('x')]);
  });

  it('leaves a valid sequence as it is (the same objects) and does not change its input', () => {
    const messages = [system, user('go'), asks('a', 'b'), result('b'), result('a'), { role: 'assistant', content: 'done' } as ChatMessage];
    const copy = structuredClone(messages);
    const healed = healMessageSequence(messages);
    expect(healed.added).toEqual([]);
    expect(healed.dropped).toEqual([]);
    healed.messages.forEach((m, i) => expect(m).toBe(messages[i]));
    expect(messages).toEqual(copy);
  });

  it('always yields a valid sequence, and healing twice changes nothing more (seeded random histories)', () => {
    let seed = 20261130;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 500; round += 1) {
      const messages: ChatMessage[] = [system];
      let next = 0;
      const ids: string[] = [];
      for (let i = 0; i < 12; i += 1) {
        const pick = random();
        if (pick < 0.3) messages.push(user(`u${i}`));
        else if (pick < 0.55) {
          const made = Array.from({ length: 1 + Math.floor(random() * 3) }, () => `c${next++}`);
          ids.push(...made);
          messages.push(asks(...made));
        } else if (ids.length) messages.push(result(ids[Math.floor(random() * ids.length)]!));
      }
      const once = healMessageSequence(messages);
      expect(validateMessageSequence(once.messages), JSON.stringify(messages)).toEqual([]);
      const twice = healMessageSequence(once.messages);
      expect(twice.added).toEqual([]);
      expect(twice.dropped).toEqual([]);
    }
  });
});
