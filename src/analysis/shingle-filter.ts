/**
 * Lucene's ShingleFilter (ES `shingle`): at each position the unigram (with `output_unigrams`),
 * then the shingles of `min`..`max` tokens starting there, joined by `separator`; a position left
 * by a removed token is filled with `filler` (so "the fox" after a stop filter gives "_ fox").
 * Shingles have type "shingle", the first token's start and the last one's end offset, and span
 * their size in positions; unigrams keep their attributes.
 */
import type { StreamFilter, Token } from './token-graph.js';

export interface ShingleOptions {
  readonly minSize: number;
  readonly maxSize: number;
  readonly outputUnigrams: boolean;
  readonly outputUnigramsIfNoShingles: boolean;
  readonly separator: string;
  readonly filler: string;
}

export const SHINGLE_TYPE = 'shingle';

export function shingleFilter(o: ShingleOptions): StreamFilter {
  return (stream) => {
    // The window: real tokens and fillers for the positions removed before each of them.
    const window: Array<{ t: Token; filler: boolean }> = [];
    for (const t of stream.tokens) {
      if (t.posInc === 0) continue; // stacked tokens do not take part (Lucene reads the first only)
      for (let gap = 1; gap < t.posInc; gap++) window.push({ t: { ...t, term: o.filler, posInc: 1, end: t.start }, filler: true });
      window.push({ t, filler: false });
    }
    const n = window.length;
    const out: Token[] = [];
    let pendingInc = 0;
    let anyShingle = false;
    for (let i = 0; i < n; i++) {
      const first = window[i];
      pendingInc += first.filler ? 1 : first.t.posInc;
      if (o.outputUnigrams && !first.filler) {
        out.push({ ...first.t, posInc: pendingInc });
        pendingInc = 0;
      }
      for (let size = o.minSize; size <= o.maxSize && i + size <= n; size++) {
        let term = first.t.term;
        for (let k = 1; k < size; k++) term += o.separator + window[i + k].t.term;
        out.push({
          term, start: first.t.start, end: window[i + size - 1].t.end, type: SHINGLE_TYPE,
          posInc: pendingInc, posLen: size, keyword: false,
        });
        pendingInc = 0;
        anyShingle = true;
      }
    }
    if (!anyShingle && !o.outputUnigrams && o.outputUnigramsIfNoShingles) return stream;
    return { tokens: out, finalIncrement: stream.finalIncrement + pendingInc };
  };
}
