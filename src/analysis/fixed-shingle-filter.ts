/**
 * Lucene's FixedShingleFilter (what ES's search_as_you_type wraps its analyzers with): every token
 * starts one shingle of exactly `size` positions — the token and the ones after it joined by
 * `separator` — and no unigrams are emitted. A position gap (a removed stop word) is filled with
 * `filler`, and a gap wider than what is left of the shingle ends it with fillers. At the end of
 * the value a shingle is only completed with fillers when the stream reports enough trailing
 * positions (removed trailing tokens, or `trailingPositions` — ES's TrailingShingleTokenFilter,
 * which makes the `._index_prefix` field hold the short shingles at the end of a value).
 *
 * A shingle takes its first token's position and start offset and its last real token's end
 * offset. Shingles are many-to-one over tokens, so this wraps a whole analyzer instead of being a
 * `TokenFilter` (one term in, one term out). Our analyzers never stack tokens at one position, so
 * the graph handling of Lucene's filter (stacked shingles) has nothing to do here.
 */
import type { Analyzer, TokenSink } from './analyzers.js';

/** Lucene FixedShingleFilter.MAX_SHINGLE_SIZE. */
export const MAX_FIXED_SHINGLE_SIZE = 4;

export interface FixedShingleOptions {
  readonly size: number;
  /** Between tokens; Lucene's default " ". */
  readonly separator: string;
  /** Stands for a missing position; Lucene's default "_", ES's search_as_you_type uses "". */
  readonly filler: string;
  /** Replaces the inner stream's trailing position increment when set (TrailingShingleTokenFilter). */
  readonly trailingPositions: number | null;
}

export function fixedShingleAnalyzer(name: string, inner: Analyzer, o: FixedShingleOptions): Analyzer {
  if (o.size <= 1 || o.size > MAX_FIXED_SHINGLE_SIZE) {
    throw new Error(`Shingle size must be between 2 and ${MAX_FIXED_SHINGLE_SIZE}, got ${o.size}`);
  }
  const gap = o.separator + o.filler;
  return {
    name,
    analyze(text: string, sink: TokenSink, firstPosition = 0): number {
      // A value's tokens are buffered: a shingle needs the tokens after its first one.
      const terms: string[] = [];
      const positions: number[] = [];
      const starts: number[] = [];
      const ends: number[] = [];
      const next = inner.analyze(text, (term, position, start, end) => {
        terms.push(term);
        positions.push(position);
        starts.push(start);
        ends.push(end);
      }, firstPosition);
      const n = terms.length;
      if (n === 0) return o.trailingPositions === null ? next : firstPosition + o.trailingPositions;
      const last = positions[n - 1];
      const trailing = o.trailingPositions ?? next - last - 1;
      for (let base = 0; base < n; base++) {
        let shingle = terms[base];
        let end = ends[base];
        let count = 1; // positions the shingle covers so far
        let j = base;
        while (count < o.size) {
          if (j + 1 === n) {
            // Every later base is closer to the end: none of them can complete either.
            if (count + trailing < o.size) return last + 1 + trailing;
            while (count < o.size) {
              shingle += gap;
              count++;
            }
            break;
          }
          let increment = positions[j + 1] - positions[j];
          if (increment > 1) {
            if (count + increment > o.size) {
              while (count < o.size) {
                shingle += gap;
                count++;
              }
              break;
            }
            for (; increment > 1; increment--, count++) shingle += gap;
          }
          j++;
          shingle += o.separator + terms[j];
          end = ends[j];
          count++;
        }
        sink(shingle, positions[base], starts[base], end);
      }
      // Shingles sit at their first token's position, so the value ends where the tokens' stream
      // ends (Lucene carries skipped positions into end()), or as far as the trailing override says.
      return last + 1 + trailing;
    },
  };
}
