import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { markedExcerpt, needsSubstringSearch, sanitizeFtsQuery, substringTerms, trigramQuery } from './ftsQuery.ts';
import { SessionStore } from './sessionStore.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const store = SessionStore.open(path.join(tempDir('hermes-fts-'), 'state.db'));
store.createSession({ id: 's1' });
store.appendMessage('s1', { role: 'user', content: 'Porting C++ code to node.js v1.2.3; the foo-bar flag is -flag, role: user' });
afterAll(() => store.close());

/** Runs a MATCH on the real index: the sanitizer's promise is about what FTS5 accepts. */
const matches = (q: string) => store.db.prepare('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?').all(q).length;

describe('sanitizeFtsQuery', () => {
  it.each([
    ['C++', '"C++"'],
    ['"unbalanced quote', '"unbalanced" "quote"'],
    ['(open paren', '"(open" "paren"'],
    ['close) paren)', '"close)" "paren)"'],
    ['foo AND', '"foo"'],
    ['OR foo', '"foo"'],
    ['NOT', null],
    ['foo AND OR NOT', '"foo"'],
    ['foo OR bar', '"foo" OR "bar"'],
    ['***', null],
    ['-flag', '"-flag"'],
    ['foo-bar', '"foo-bar"'],
    ['node.js', '"node.js"'],
    ['v1.2.3', '"v1.2.3"'],
    ['role:user', '"role:user"'],
    ['', null],
    ['   ', null],
    ['?!.,;:()[]{}', null],
    ['"exact phrase" other', '"exact phrase" "other"'],
    ['migrat*', '"migrat"*'],
    ['NEAR(a b)', '"NEAR(a" "b)"'],
    ['a\u0000b', '"a" "b"'],
  ])('%j → %j', (input, expected) => {
    expect(sanitizeFtsQuery(input)).toBe(expected);
    if (expected) expect(() => matches(expected)).not.toThrow();
  });

  it('keeps what the user meant: hyphenated, dotted and versioned terms find their text', () => {
    for (const q of ['C++', 'foo-bar', 'node.js', 'v1.2.3', '-flag', 'role:user', '"unbalanced porting', 'port*']) {
      expect(matches(sanitizeFtsQuery(q)!), q).toBe(q === '"unbalanced porting' ? 0 : 1);
    }
  });

  it('never produces a query FTS5 rejects, for random text full of query syntax', () => {
    const alphabet = ['"', '(', ')', '*', ':', '^', '+', '-', '.', ' ', ' ', 'AND', 'OR', 'NOT', 'NEAR', 'a', 'b', 'é', '数', '\u0000', '\\', "'", '{', '}', ',', '\n', '😀'];
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 3000; i += 1) {
      const text = Array.from({ length: Math.floor(random() * 14) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(
        random() < 0.5 ? '' : ' ',
      );
      const query = sanitizeFtsQuery(text);
      if (query !== null) expect(() => matches(query), JSON.stringify(text)).not.toThrow();
      expect(() => store.search(text), JSON.stringify(text)).not.toThrow();
    }
  });
});

describe('substring helpers', () => {
  it('splits terms for substring search, keeping quoted phrases whole and dropping operators', () => {
    expect(substringTerms('数据库 AND "迁移 方案" x*')).toEqual(['数据库', '迁移 方案', 'x']);
    expect(trigramQuery(['say "hi"'])).toBe('"say ""hi"""');
  });

  it('knows which scripts need substring search', () => {
    expect(['数据库', 'テキスト', '검색', 'ภาษาไทย'].every(needsSubstringSearch)).toBe(true);
    expect(needsSubstringSearch('database café')).toBe(false);
  });

  it('marks every occurrence inside a one-line excerpt, case-insensitively', () => {
    expect(markedExcerpt('First line\n  then Data and data', ['data'])).toBe('First line then «Data» and «data»');
    const long = `${'x'.repeat(200)} needle ${'y'.repeat(200)}`;
    const excerpt = markedExcerpt(long, ['needle'], 60);
    expect(excerpt).toMatch(/^….*«needle».*…$/);
    expect(excerpt.length).toBeLessThan(70);
  });
});
