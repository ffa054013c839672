import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../providers/types.ts';
import { ContextCompressor, planCompression } from './contextCompressor.ts';
import { ContextCompressionError, contextEngineProblem, type Summarize } from './contextEngine.ts';
import { generateHistory, HistoryWriter, seededRandom } from './contextTestUtil.ts';
import { validateMessageSequence } from './messageSequence.ts';
import { isSummaryMessage, summaryMessageText } from './summaryPrompt.ts';
import { estimatePromptTokens } from './tokens.ts';

const signal = new AbortController().signal;

/** A stand-in for the model: the summary lists every `goal-N` tag in the transcript, so lost history shows. */
function goalSummarizer(prompts: ChatMessage[][] = []): Summarize {
  return async (prompt) => {
    prompts.push(prompt);
    const goals = [...new Set(prompt[1].content?.match(/goal-\d+/g) ?? [])];
    return `Goals so far: ${goals.join(' ')}`;
  };
}

/** The longest common suffix of two arrays by identity. */
function sharedSuffix(a: readonly ChatMessage[], b: readonly ChatMessage[]): number {
  let k = 0;
  while (k < a.length && k < b.length && a[a.length - 1 - k] === b[b.length - 1 - k]) k += 1;
  return k;
}

describe('ContextCompressor', () => {
  const engine = new ContextCompressor();

  it('does nothing, without a model call, when there is no middle to summarize', async () => {
    let called = false;
    const summarize: Summarize = async () => ((called = true), 'x');
    const short: ChatMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'list files' },
    ];
    const result = await engine.compress({ messages: short, contextMax: 128_000, signal, summarize });
    expect(result).toMatchObject({ removed: 0, summary: null });
    expect(result.messages).toBe(short);
    expect(result.afterTokens).toBe(result.beforeTokens);
    // Only an earlier summary between the first exchange and the tail: summarizing it again would only lose detail.
    const compressed = (await engine.compress({ messages: generateHistory(8, 30), contextMax: 20_000, signal, summarize: goalSummarizer() })).messages;
    const again = await engine.compress({ messages: compressed, contextMax: 20_000, signal, summarize });
    expect(again.removed).toBe(0);
    expect(called).toBe(false);
  });

  it('keeps the system message, the first exchange and the last turn verbatim', async () => {
    const writer = new HistoryWriter(seededRandom(11));
    const first = [{ role: 'user', content: 'goal-1 fix the build' }, { role: 'assistant', content: 'Fixed it.' }] satisfies ChatMessage[];
    const messages: ChatMessage[] = [{ role: 'system', content: 'sys' }, ...first];
    for (let t = 2; t <= 40; t += 1) messages.push(...writer.turn(t, { maxBlocks: 2, resultWords: 100 }));
    const last = writer.turn(41, { maxBlocks: 1, resultWords: 50 });
    messages.push(...last);
    const result = await engine.compress({ messages, contextMax: 20_000, signal, summarize: goalSummarizer() });

    expect(result.removed).toBeGreaterThan(0);
    expect(result.messages.slice(0, 3)).toEqual([messages[0], ...first]);
    expect(isSummaryMessage(result.messages[3])).toBe(true);
    expect(sharedSuffix(result.messages, messages)).toBeGreaterThanOrEqual(last.length);
    expect(result.messages.length).toBe(messages.length - result.removed + 1);
    expect(result.afterTokens).toBeLessThan(result.beforeTokens);
    expect(result.afterTokens).toBe(estimatePromptTokens(result.messages));
    expect(summaryMessageText(result.messages[3])).toMatch(/goal-2 .*goal-\d+/);
  });

  it('keeps the request being worked on when one long agent turn outgrows the tail', async () => {
    const writer = new HistoryWriter(seededRandom(5));
    const messages: ChatMessage[] = [{ role: 'system', content: 'sys' }, ...writer.turn(1, { maxBlocks: 0, resultWords: 1 })];
    const request: ChatMessage = { role: 'user', content: 'goal-2 migrate every package' };
    messages.push(request);
    for (let i = 0; i < 60; i += 1) messages.push(...writer.toolBlock(2, 150));
    const result = await engine.compress({ messages, contextMax: 16_000, signal, summarize: goalSummarizer() });

    expect(result.removed).toBeGreaterThan(0);
    const at = result.messages.indexOf(request);
    expect(isSummaryMessage(result.messages[at - 1])).toBe(true);
    expect(result.messages[at + 1]).toMatchObject({ role: 'assistant' });
    expect(validateMessageSequence(result.messages)).toEqual([]);
    expect(result.afterTokens).toBeLessThan(16_000 * 0.5);
  });

  it('passes the focus topic to the summary prompt, and folds an earlier summary into the next', async () => {
    const prompts: ChatMessage[][] = [];
    let messages = generateHistory(21, 30, { maxBlocks: 2, resultWords: 120 });
    const first = await engine.compress({ messages, contextMax: 24_000, signal, summarize: goalSummarizer(prompts), focusTopic: 'the flaky login test' });
    expect(prompts[0][1].content).toContain('the flaky login test');
    expect(prompts[0][1].content).not.toContain('EARLIER SUMMARY');

    const writer = new HistoryWriter(seededRandom(22));
    messages = [...first.messages];
    for (let t = 31; t <= 60; t += 1) messages.push(...writer.turn(t, { maxBlocks: 2, resultWords: 120 }));
    const second = await engine.compress({ messages, contextMax: 24_000, signal, summarize: goalSummarizer(prompts) });
    expect(prompts[1][1].content).toContain('EARLIER SUMMARY');
    expect(prompts[1][1].content).toContain(first.summary);
    expect(second.messages.filter(isSummaryMessage)).toHaveLength(1);
    expect(second.summary).toContain('goal-2 ');
  });

  it('refuses an empty summary and stops before the model call when aborted', async () => {
    const messages = generateHistory(3, 30);
    await expect(engine.compress({ messages, contextMax: 20_000, signal, summarize: async () => '  ' })).rejects.toBeInstanceOf(ContextCompressionError);
    const controller = new AbortController();
    controller.abort(new Error('interrupted'));
    let called = false;
    await expect(
      engine.compress({ messages, contextMax: 20_000, signal: controller.signal, summarize: async () => ((called = true), 'x') }),
    ).rejects.toThrow('interrupted');
    expect(called).toBe(false);
  });

  it('shortens a runaway summary instead of refilling the window', async () => {
    const messages = generateHistory(4, 40);
    const result = await engine.compress({ messages, contextMax: 20_000, signal, summarize: async () => 'word '.repeat(50_000) });
    expect(result.removed).toBeGreaterThan(0);
    expect(result.afterTokens).toBeLessThan(20_000 * 0.5);
  });

  it('compresses once the estimate reaches the threshold', () => {
    const messages = generateHistory(2, 10);
    const tokens = estimatePromptTokens(messages);
    expect(engine.shouldCompress({ messages, tools: [], contextMax: tokens * 2, threshold: 0.5 })).toBe(true);
    expect(engine.shouldCompress({ messages, tools: [], contextMax: tokens * 2 + 2, threshold: 0.5 })).toBe(false);
    expect(() => engine.shouldCompress({ messages, tools: [], contextMax: 1000, threshold: 50 })).toThrow(RangeError);
  });

  it('is a valid context engine', () => {
    expect(contextEngineProblem(engine)).toBeNull();
    expect(contextEngineProblem({ name: 'x', compress() {} })).toMatch(/shouldCompress/);
  });
});

describe('compression keeps tool calls and results together', () => {
  it('always yields a valid sequence over many generated histories and budgets', async () => {
    for (let seed = 1; seed <= 400; seed += 1) {
      const random = seededRandom(seed * 7919);
      const messages = generateHistory(seed, 1 + Math.floor(random() * 25), { maxBlocks: 1 + Math.floor(random() * 6), resultWords: 20 + Math.floor(random() * 400) });
      const engine = new ContextCompressor({ tailRatio: 0.05 + random() * 0.4, headRatio: 0.02 + random() * 0.2 });
      const contextMax = 2_000 + Math.floor(random() * 30_000);
      const prompts: ChatMessage[][] = [];
      const result = await engine.compress({ messages, contextMax, signal, summarize: goalSummarizer(prompts) });
      const context = `seed ${seed}`;
      // The summary call goes to the same model: its prompt must fit the window too.
      for (const prompt of prompts) expect(estimatePromptTokens(prompt), context).toBeLessThan(contextMax * 0.75);
      expect(validateMessageSequence(messages), context).toEqual([]);
      expect(validateMessageSequence(result.messages), context).toEqual([]);
      expect(result.messages[0], context).toBe(messages[0]);
      expect(result.messages[1], context).toBe(messages[1]);
      // The newest message and the latest request always survive verbatim.
      expect(result.messages.at(-1), context).toBe(messages.at(-1));
      const lastUser = messages.findLast((m) => m.role === 'user');
      expect(result.messages, context).toContain(lastUser);
      expect(result.messages.length, context).toBe(messages.length - result.removed + (result.removed > 0 ? 1 : 0));
    }
  });

  it('plans cuts only at block boundaries', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const messages = generateHistory(seed, 12);
      const random = seededRandom(seed);
      const plan = planCompression(messages, 1_000 + Math.floor(random() * 20_000), { tailRatio: random() * 0.5 + 0.01, headRatio: random() * 0.3 + 0.01 });
      if (!plan) continue;
      const kept = [...messages.slice(0, plan.headEnd), ...(plan.keptUser === null ? [] : [messages[plan.keptUser]]), ...messages.slice(plan.tailStart)];
      expect(validateMessageSequence(kept), `seed ${seed}`).toEqual([]);
      expect(validateMessageSequence(plan.middle.map((i) => messages[i])), `seed ${seed}`).toEqual([]);
    }
  });

  it('survives a 200-turn session compressed whenever it passes the threshold', async () => {
    const contextMax = 16_000;
    const threshold = 0.5;
    const engine = new ContextCompressor();
    const writer = new HistoryWriter(seededRandom(2024));
    const summarize = goalSummarizer();
    let prompt: ChatMessage[] = [{ role: 'system', content: 'You are a coding agent.' }];
    let compressions = 0;
    // Before every model call the host checks the prompt, as the agent loop does.
    const beforeModelCall = async () => {
      if (!engine.shouldCompress({ messages: prompt, tools: [], contextMax, threshold })) return;
      const result = await engine.compress({ messages: prompt, contextMax, signal, summarize });
      if (result.removed > 0) compressions += 1;
      prompt = result.messages;
      expect(validateMessageSequence(prompt)).toEqual([]);
      expect(result.afterTokens).toBeLessThan(contextMax * threshold);
    };
    for (let t = 1; t <= 200; t += 1) {
      const turn = writer.turn(t, { maxBlocks: 5, resultWords: 250 });
      prompt.push(turn[0]);
      for (let i = 1; i < turn.length; ) {
        await beforeModelCall();
        expect(estimatePromptTokens(prompt)).toBeLessThan(contextMax);
        // One model response: a tool-call block with its results, or the final reply.
        let end = i + 1;
        while (end < turn.length && turn[end].role === 'tool') end += 1;
        prompt.push(...turn.slice(i, end));
        i = end;
      }
    }
    expect(compressions).toBeGreaterThan(10);
    // Every goal ever stated is still in the prompt: in a summary, the first exchange or verbatim.
    const text = prompt.map((m) => m.content ?? '').join('\n');
    for (let t = 1; t <= 200; t += 1) expect(text).toMatch(new RegExp(`goal-${t}\\b`));
  });
});
