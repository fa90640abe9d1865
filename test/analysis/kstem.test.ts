import { describe, expect, it } from 'vitest';
import { kstem } from '../../src/analysis/kstem.js';
import { goldenPairs } from './lucene-golden/golden.js';

describe('kstem', () => {
  it('stems like the ES kstem documentation example', () => {
    // ES docs, kstem token filter: "the foxes jumping quickly" -> [ the, fox, jump, quick ]
    expect(['the', 'foxes', 'jumping', 'quickly'].map(kstem)).toEqual(['the', 'fox', 'jump', 'quick']);
  });

  it('matches Lucene 8.7 KStemFilter on 10,900 words (dictionary words, suffixed variants, exception tables)', () => {
    const golden = goldenPairs('kstem.golden.tsv');
    expect(golden.length).toBeGreaterThan(10_000);
    const wrong = golden.filter(([word, stem]) => kstem(word) !== stem).map(([word, stem]) => `${word}: lucene ${stem}, ours ${kstem(word)}`);
    expect(wrong).toEqual([]);
  });
});
