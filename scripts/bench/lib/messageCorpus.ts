/**
 * A deterministic corpus of stored messages for the session-store benchmarks: mixed English, code,
 * tool calls and output, some Chinese/Japanese/Korean, in sessions of 200 messages, with a rare word
 * planted in about 1 of 10,000 messages. Plain data (no product import), so it can feed any build's store.
 */

/** Bump when the messages generated change: the cached databases built from them are then rebuilt. */
export const CORPUS_VERSION = 2;

export const MESSAGES_PER_SESSION = 200;

const COMMON = 'the a to of and in is it that for on with this be as are you can we not file function error test run use'.split(' ');
export const VOCAB = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}${['ing', 'er', 'ion', 'ed', ''][i % 5]}`);
const CODE = ['const', 'return', 'import', 'async', 'await', 'src/index.ts', 'node.js', 'v1.2.3', 'npm', 'git', 'diff', 'foo-bar', 'C++', 'undefined'];
const CJK = [
  '我们需要一个数据库迁移方案', '请检查配置文件是否正确', '这个函数的性能有问题', '日本語のテキストを検索します',
  'このエラーの原因を調べてください', '한국어 데이터베이스 검색 기능', '설정 파일을 확인해 주세요',
];
/** Session titles, so the picker's title filter has something to find (and `数据库` is also a title word). */
const TITLE_WORDS = ['deploy', 'refactor', '数据库', 'parser', 'release', 'migration', 'flaky test', 'docs'];

/** Message shapes as the store's `appendMessage` takes them (structurally, so any build's store accepts them). */
export interface CorpusMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  toolCalls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  toolName?: string;
  toolCallId?: string;
}

/** A generator of the corpus, message by message, from a fixed seed. */
export function messageCorpus(): { message(i: number): CorpusMessage; sentence(words: number): string; title(session: number): string } {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  /** Zipf-like: low indexes far more often, like words in real text. */
  const zipf = <T>(list: readonly T[]): T => list[Math.floor(list.length * random() ** 3)]!;
  const sentence = (words: number) =>
    Array.from({ length: words }, () => (random() < 0.45 ? zipf(COMMON) : random() < 0.85 ? zipf(VOCAB) : pick(CODE))).join(' ');
  return {
    sentence,
    title: (session) => `${TITLE_WORDS[session % TITLE_WORDS.length]} ${session}`,
    message(i) {
      const r = random();
      const rare = i % 10_007 === 0 ? ' zanzibar' : '';
      if (r < 0.08) return { role: 'user', content: `${pick(CJK)}，${pick(CJK)}${rare}` };
      if (r < 0.3) return { role: 'user', content: `${sentence(8 + Math.floor(random() * 30))}${rare}` };
      if (r < 0.45) {
        const args = JSON.stringify({ command: `grep -rn ${zipf(VOCAB)} src/`, path: `src/${zipf(VOCAB)}.ts` });
        return { role: 'assistant', content: sentence(10), toolCalls: [{ id: `c${i}`, type: 'function', function: { name: 'terminal', arguments: args } }] };
      }
      if (r < 0.65) return { role: 'tool', content: `${sentence(100 + Math.floor(random() * 300))}${rare}`, toolName: 'terminal', toolCallId: `c${i}` };
      return { role: 'assistant', content: `${sentence(30 + Math.floor(random() * 120))}${rare}` };
    },
  };
}
