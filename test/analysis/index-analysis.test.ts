import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyzeToTokens, BUILT_IN_ANALYZERS, buildIndexAnalysis, DEFAULT_INDEX_ANALYSIS, runStages } from '../../src/analysis/index.js';
import type { AnalyzerComponents } from '../../src/analysis/index.js';

const TEXTS = [
  'The 2 QUICK Brown-Foxes jumped over the lazy dog\'s bone.',
  'It is what it is, and that\'s THAT — naïve Ωμέγα résumé ΣΊΣΥΦΟΣ İstanbul',
  'the the the', '', '   ', 'a an and are as at be but by for if in into is it no not of on or such',
  'running runners ran; relational conditional rational… 42.5% e-mail U.S.A. 😀👍🏽',
];

/** The general pipeline's final tokens as analyzeToTokens reports them (positions from increments). */
function viaPipeline(c: AnalyzerComponents, text: string) {
  const { streams } = runStages(c, text, false);
  let position = -1;
  return streams[streams.length - 1].tokens.map((t) => {
    position += t.posInc;
    return { term: t.term, position, startOffset: t.start, endOffset: t.end };
  });
}

const arbitraryText = fc.string({ unit: fc.constantFrom('a', 'B', 'the', ' ', '-', '\'s', 'é', 'İ', 'Σ', '1', '.', 'and', 'running', '😀'), maxLength: 40 });

describe('index analysis', () => {
  it('describes each built-in analyzer by components that give exactly its tokens', () => {
    for (const name of BUILT_IN_ANALYZERS) {
      const analyzer = DEFAULT_INDEX_ANALYSIS.analyzer(name)!;
      for (const text of TEXTS) expect(viaPipeline(analyzer.components, text), `${name}: ${text}`).toEqual(analyzeToTokens(analyzer, text));
      fc.assert(fc.property(arbitraryText, (text) => {
        expect(viaPipeline(analyzer.components, text)).toEqual(analyzeToTokens(analyzer, text));
      }), { numRuns: 200 });
    }
  });

  it('runs a custom analyzer on the fast chain and on the pipeline with the same tokens', () => {
    const analysis = buildIndexAnalysis({
      char_filter: { noop: { type: 'mapping', mappings: ['\u0000 => \u0001'] } },
      analyzer: {
        fast: { tokenizer: 'standard', filter: ['lowercase', 'stop', 'porter_stem'] },
        // The char filter (matching nothing here) sends the same chain through the general pipeline.
        slow: { tokenizer: 'standard', char_filter: ['noop'], filter: ['lowercase', 'stop', 'porter_stem'] },
      },
    });
    const fast = analysis.analyzer('fast')!;
    const slow = analysis.analyzer('slow')!;
    for (const text of TEXTS) expect(analyzeToTokens(slow, text)).toEqual(analyzeToTokens(fast, text));
    fc.assert(fc.property(arbitraryText, (text) => {
      expect(analyzeToTokens(slow, text)).toEqual(analyzeToTokens(fast, text));
      // multi-valued fields: the returned next position agrees too
      expect(slow.analyze(text, () => {}, 7)).toBe(fast.analyze(text, () => {}, 7));
    }), { numRuns: 300 });
  });

  it('a configured `standard` with stopwords and `english` with stem_exclusion', () => {
    const analysis = buildIndexAnalysis({
      analyzer: { std: { type: 'standard', stopwords: '_english_' }, en: { type: 'english', stem_exclusion: ['running'] } },
    });
    expect(analyzeToTokens(analysis.analyzer('std')!, 'The quick fox').map((t) => [t.term, t.position])).toEqual([['quick', 1], ['fox', 2]]);
    expect(analyzeToTokens(analysis.analyzer('en')!, 'running jumping').map((t) => t.term)).toEqual(['running', 'jump']);
  });

  it('memoises by settings, so every build of an index shares one analysis', () => {
    const settings = { analyzer: { a: { tokenizer: 'whitespace' } } };
    expect(buildIndexAnalysis(settings)).toBe(buildIndexAnalysis(JSON.parse(JSON.stringify(settings))));
  });
});
