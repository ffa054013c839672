import type { ChatMessage, ToolCall } from '../providers/types.ts';
import { seededRandom } from '../../../../scripts/testing/seededRandom.ts';

/** Generated histories draw from the repo's seeded generator; re-exported for the tests that replay them. */
export { seededRandom };

export class HistoryWriter {
  private nextCall = 0;
  constructor(private readonly random: () => number) {}

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  text(words: number, tag = ''): string {
    const vocab = ['read', 'file', 'src/index.ts', 'error', 'build', 'test', 'fixed', 'the', 'a', 'npm run', 'done', '日本'];
    const out = tag ? [tag] : [];
    for (let i = 0; i < words; i += 1) out.push(vocab[this.int(0, vocab.length - 1)]);
    return out.join(' ');
  }

  /** One assistant message calling 1 to `maxCalls` tools, followed by one result per call (results in random order). */
  toolBlock(maxCalls: number, resultWords: number): ChatMessage[] {
    const calls: ToolCall[] = [];
    for (let i = this.int(1, maxCalls); i > 0; i -= 1) {
      const id = `call_${(this.nextCall += 1)}`;
      calls.push({ id, type: 'function', function: { name: ['read_file', 'terminal', 'search'][this.int(0, 2)], arguments: JSON.stringify({ q: this.text(3) }) } });
    }
    const results: ChatMessage[] = calls.map((c) => ({ role: 'tool', tool_call_id: c.id, content: this.text(this.int(1, resultWords)) }));
    results.sort(() => this.random() - 0.5);
    return [{ role: 'assistant', content: this.random() < 0.5 ? null : this.text(5), tool_calls: calls }, ...results];
  }

  /** A user turn: the request, 0 to `maxBlocks` tool blocks, and (unless `open`) a final plain reply. */
  turn(index: number, options: { maxBlocks: number; resultWords: number; open?: boolean }): ChatMessage[] {
    const out: ChatMessage[] = [{ role: 'user', content: this.text(this.int(3, 30), `goal-${index}`) }];
    for (let b = this.int(0, options.maxBlocks); b > 0; b -= 1) out.push(...this.toolBlock(3, options.resultWords));
    if (!options.open) out.push({ role: 'assistant', content: this.text(this.int(2, 40)) });
    return out;
  }
}

/** A valid prompt: system, then `turns` turns; the last one may still be running (ends in tool results or the user message). */
export function generateHistory(seed: number, turns: number, options = { maxBlocks: 4, resultWords: 200 }): ChatMessage[] {
  const random = seededRandom(seed);
  const writer = new HistoryWriter(random);
  const messages: ChatMessage[] = [{ role: 'system', content: 'You are a coding agent.' }];
  for (let t = 1; t <= turns; t += 1) messages.push(...writer.turn(t, { ...options, open: t === turns && random() < 0.5 }));
  return messages;
}
