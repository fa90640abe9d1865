/**
 * Index-wide term statistics over every segment of the shards a request targets (ES's dfs phase,
 * done locally: the coordinator owns the segments). Deleted documents still count until merged
 * away, as in Lucene. Lookups are memoised per request.
 */
import { hasPostings, readTermPostings, docFreq, termAt, termOrd, prefixRange, compareCodePoints, type Segment, type SegmentField } from '../../index/index.js';
import type { FieldStatistics, StatsSource } from './context.js';

export class SegmentStatsSource implements StatsSource {
  // Made on first lookup: most searches of a load test reuse a cached plan and look nothing up.
  private fieldCache: Map<string, FieldStatistics> | null = null;
  private dfCache: Map<string, number> | null = null;

  /** `segments`: what the statistics are over (a plan cache compares them to tell one index generation from the next). */
  constructor(readonly segments: readonly Segment[]) {}

  fieldStats(field: string): FieldStatistics {
    const cache = (this.fieldCache ??= new Map());
    let s = cache.get(field);
    if (!s) {
      let docCount = 0;
      let sumTotalTermFreq = 0;
      let sumDocFreq = 0;
      let maxSegmentTermCount = 0;
      for (const seg of this.segments) {
        const f = seg.fields.get(field);
        if (!f) continue;
        docCount += f.info.docCount;
        sumTotalTermFreq += f.info.sumTotalTermFreq;
        sumDocFreq += f.info.sumDocFreq;
        if (f.info.termCount > maxSegmentTermCount) maxSegmentTermCount = f.info.termCount;
      }
      s = { docCount, sumTotalTermFreq, sumDocFreq, maxSegmentTermCount };
      cache.set(field, s);
    }
    return s;
  }

  docFreq(field: string, term: string): number {
    const key = field + '\u0000' + term;
    const cache = (this.dfCache ??= new Map());
    let df = cache.get(key);
    if (df === undefined) {
      df = 0;
      for (const seg of this.segments) {
        const f = seg.fields.get(field);
        if (!f) continue;
        const ord = termOrd(f, term);
        if (ord >= 0) df += docFreq(f, ord);
      }
      cache.set(key, df);
    }
    return df;
  }

  totalTermFreq(field: string, term: string): number {
    let sum = 0;
    for (const seg of this.segments) {
      const f = seg.fields.get(field);
      if (!f || !hasPostings(f)) continue;
      const ord = termOrd(f, term);
      if (ord < 0) continue;
      if (f.totalTermFreq !== null) {
        sum += f.totalTermFreq[ord];
        continue;
      }
      // Feature fields (rank_feature's default pivot sums their weight codes) and fields without freqs.
      const { docs, freqs } = readTermPostings(f, ord);
      if (freqs === null) sum += docs.length;
      else for (let p = 0; p < freqs.length; p++) sum += freqs[p];
    }
    return sum;
  }

  forEachTerm(field: string, fromPrefix: string, visit: (term: string) => boolean): void {
    // k-way merge of the segments' sorted dictionaries from the first term ≥ prefix.
    const cursors: Array<{ seg: Segment; f: SegmentField; ord: number; term: string }> = [];
    for (const seg of this.segments) {
      const f = seg.fields.get(field);
      if (!f || f.info.termCount === 0) continue;
      const [start] = fromPrefix === '' ? [0] : prefixRange(f, fromPrefix);
      if (start < f.info.termCount) cursors.push({ seg, f, ord: start, term: termAt(seg, f, start) });
    }
    let last: string | null = null;
    while (cursors.length > 0) {
      let min = 0;
      for (let i = 1; i < cursors.length; i++) if (compareCodePoints(cursors[i].term, cursors[min].term) < 0) min = i;
      const c = cursors[min];
      if (c.term !== last) {
        last = c.term;
        if (!visit(c.term)) return;
      }
      if (++c.ord < c.f.info.termCount) c.term = termAt(c.seg, c.f, c.ord);
      else cursors.splice(min, 1);
    }
  }
}
