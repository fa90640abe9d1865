import { describe, expect, it } from 'vitest';
import { classicFilter, classicTokenize } from '../../src/analysis/classic-tokenizer.js';
import { goldenTexts } from './lucene-golden/golden.js';

const rows = (tokens: ReturnType<typeof classicTokenize>) => tokens.map((t) => [t.term, t.start, t.end, t.type, t.posInc]);

describe('classic tokenizer and filter', () => {
  it('ES documentation example', () => {
    expect(classicTokenize("The 2 QUICK Brown-Foxes jumped over the lazy dog's bone.", 255).map((t) => t.term))
      .toEqual(['The', '2', 'QUICK', 'Brown', 'Foxes', 'jumped', 'over', 'the', 'lazy', "dog's", 'bone']);
  });

  it.each(goldenTexts('classic.golden.ndjson').map((g, i) => [i, g] as const))('tokenizer matches Lucene 8.7 ClassicTokenizer on text %i', (_i, g) => {
    expect(rows(classicTokenize(g.text, g.max))).toEqual(g.tokens);
  });

  it.each(goldenTexts('classic-filter.golden.ndjson').map((g, i) => [i, g] as const))('filter matches Lucene 8.7 ClassicFilter on text %i', (_i, g) => {
    expect(rows(classicFilter({ tokens: classicTokenize(g.text, g.max), finalIncrement: 0 }).tokens)).toEqual(g.tokens);
  });

  it('stays linear where NUM keeps looking for a digit', () => {
    const t0 = Date.now();
    expect(classicTokenize('a_'.repeat(30_000), 255).length).toBe(30_000);
    expect(Date.now() - t0).toBeLessThan(20_000); // generous: the machine is shared
  });
});
