import { describe, expect, it } from 'vitest';
import { tokenizeSpans } from '../../src/analysis/token-graph.js';
import { UAX_TOKEN_TYPES, uaxUrlEmailTokenizer } from '../../src/analysis/uax-url-email-tokenizer.js';
import { goldenTexts } from './lucene-golden/golden.js';

function tokens(text: string, max = 255): Array<[string, number, number, string, number]> {
  return tokenizeSpans(uaxUrlEmailTokenizer(max), text, UAX_TOKEN_TYPES).map((t) => [t.term, t.start, t.end, t.type, t.posInc]);
}

describe('uax_url_email tokenizer', () => {
  it('ES documentation example', () => {
    expect(tokens('Email me at john.smith@global-international.com').map((t) => t[0])).toEqual(['Email', 'me', 'at', 'john.smith@global-international.com']);
  });

  const golden = goldenTexts('uax-url-email.golden.ndjson');
  it.each(golden.map((g, i) => [i, g] as const))('matches Lucene 8.7 UAX29URLEmailTokenizer on text %i', (_i, g) => {
    expect(tokens(g.text, g.max)).toEqual(g.tokens);
  });

  // Runs that keep host and e-mail rules alive (walks that read far and accept nothing), at the
  // default length and at the largest one (there a walk may read the whole text: the scan memo
  // keeps it linear while the text is within its 64 Ki reach).
  it('stays linear on long runs that keep the host and e-mail rules alive', () => {
    for (const [length, max] of [[40_000, 255], [30_000, 1024 * 1024]]) {
      for (const unit of ['a.', 'a-', '1.', 'a@', '%2', 'http://a', '[::', '"\\', 'a-b.', 'x@y-']) {
        const text = unit.repeat(Math.ceil(length / unit.length));
        const t0 = Date.now();
        tokens(text, max);
        expect(Date.now() - t0, `${unit} × ${text.length / unit.length}, max ${max}`).toBeLessThan(20_000); // generous: the machine is shared
      }
    }
  });
});
