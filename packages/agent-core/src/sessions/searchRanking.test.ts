import { describe, expect, it } from 'vitest';
import { rankCandidates, type Candidate, type Needle } from './searchRanking.ts';

const doc = (id: number, text: string): Candidate => ({ id, text, length: text.split(/\s+/).length });
const words = (text: string, prefix = false): Needle => ({ kind: 'words', tokens: text.split(' '), prefix });

describe('rankCandidates (bm25 over the candidates)', () => {
  it('ranks more occurrences higher, then the shorter text, then the newer', () => {
    const ranked = rankCandidates(
      [doc(1, 'cache once and then many other words about other things'), doc(2, 'cache cache cache'), doc(3, 'cache once'), doc(4, 'cache once')],
      [words('cache')],
    );
    expect(ranked).toEqual([2, 4, 3, 1]);
  });

  it('counts a phrase only where its tokens are adjacent, across punctuation', () => {
    const ranked = rankCandidates([doc(1, 'node and js apart'), doc(2, 'node.js here'), doc(3, 'nothing')], [words('node js')]);
    expect(ranked[0]).toBe(2);
    expect(ranked.slice(1).sort()).toEqual([1, 3]);
  });

  it('matches a prefix at the start of a token only, folding case and diacritics', () => {
    const ranked = rankCandidates([doc(1, 'redeploy later'), doc(2, 'Déployer maintenant'), doc(3, 'DEPLOYMENT deployed')], [words('deplo', true)]);
    expect(ranked).toEqual([3, 2, 1]);
  });

  it('counts substrings for the trigram index, inside unspaced text', () => {
    const ranked = rankCandidates(
      [doc(1, '我们需要一个数据库迁移方案'), doc(2, '数据库，数据库'), doc(3, '没有')],
      [{ kind: 'substring', text: '数据库' }],
    );
    expect(ranked).toEqual([2, 1, 3]);
  });

  it('weighs a rarer term more than a common one', () => {
    const candidates = [doc(1, 'the the zanzibar'), doc(2, 'the the the the'), doc(3, 'the x'), doc(4, 'the y')];
    expect(rankCandidates(candidates, [words('the'), words('zanzibar')])[0]).toBe(1);
  });
});
