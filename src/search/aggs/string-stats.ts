/**
 * `string_stats` (ES StringStatsAggregator / InternalStringStats): over every value of a keyword
 * field (`missing` standing in for a doc without one) the count, the min / max / average length
 * and the Shannon entropy of the character distribution, which `show_distribution` prints.
 * Lengths and characters are UTF-16 code units, as Java's String; an empty value is counted but
 * adds no length. Characters are counted per distinct term, times how many values it is.
 */
import { termAt, type Segment } from '../../index/index.js';
import type { ExecStringStats, StringStatsPartial } from './exec-aggs.js';
import type { DocLists } from './doc-lists.js';
import { segmentValues } from './field-values.js';
import { CompensatedSum } from './compensated-sum.js';

/** Java's Integer.MAX_VALUE / MIN_VALUE: the extremes before any value (printed when every value is empty). */
const NO_MIN = 2147483647;
const NO_MAX = -2147483648;

function emptyStats(): StringStatsPartial {
  return { kind: 'string_stats', count: 0, totalLength: 0, minLength: NO_MIN, maxLength: NO_MAX, chars: [] };
}

/** Adds `times` values of `term` to the stats and `chars`. */
function addTerm(out: StringStatsPartial, chars: Map<string, number>, term: string, times: number): void {
  out.count += times;
  if (term.length === 0) return;
  out.totalLength += term.length * times;
  if (term.length < out.minLength) out.minLength = term.length;
  if (term.length > out.maxLength) out.maxLength = term.length;
  for (let i = 0; i < term.length; i++) {
    const c = term[i];
    chars.set(c, (chars.get(c) ?? 0) + times);
  }
}

export function collectStringStats(agg: ExecStringStats, segments: readonly Segment[], docs: DocLists): StringStatsPartial {
  const out = emptyStats();
  const chars = new Map<string, number>();
  const missing = agg.source.missing === null ? null : String(agg.source.missing);
  let missingDocs = 0;
  for (let s = 0; s < segments.length; s++) {
    const list = docs[s];
    if (list.length === 0) continue;
    const segment = segments[s];
    const { offsets, ords, field } = segmentValues(segment, agg.source);
    if (!offsets || !ords || !field) {
      missingDocs += list.length;
      continue;
    }
    const perOrd = new Int32Array(field.info.termCount);
    for (let i = 0; i < list.length; i++) {
      const doc = list[i];
      const start = offsets[doc];
      const end = offsets[doc + 1];
      if (start === end) missingDocs++;
      for (let j = start; j < end; j++) perOrd[ords[j]]++;
    }
    for (let ord = 0; ord < perOrd.length; ord++) if (perOrd[ord] > 0) addTerm(out, chars, termAt(segment, field, ord), perOrd[ord]);
  }
  if (missing !== null && missingDocs > 0) addTerm(out, chars, missing, missingDocs);
  out.chars.push(...chars);
  return out;
}

export function reduceStringStats(parts: readonly StringStatsPartial[]): StringStatsPartial {
  const out = emptyStats();
  const chars = new Map<string, number>();
  for (const p of parts) {
    out.count += p.count;
    out.totalLength += p.totalLength;
    out.minLength = Math.min(out.minLength, p.minLength);
    out.maxLength = Math.max(out.maxLength, p.maxLength);
    for (const [c, n] of p.chars) chars.set(c, (chars.get(c) ?? 0) + n);
  }
  out.chars.push(...chars);
  return out;
}

/** InternalStringStats.getDistribution: each character's share of all characters, most frequent first (ties by character). */
function distribution(stats: StringStatsPartial): Array<[string, number]> {
  const sorted = [...stats.chars].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return sorted.map(([c, n]) => [c, n / stats.totalLength]);
}

/** InternalStringStats.getEntropy: −Σ p·log2 p over the distribution, summed as ES sums it. */
function entropy(shares: ReadonlyArray<[string, number]>): number {
  const sum = new CompensatedSum();
  for (const [, p] of shares) if (p > 0) sum.add(p * (Math.log(p) / Math.log(2.0)));
  return -sum.value;
}

export function renderStringStats(agg: ExecStringStats, stats: StringStatsPartial): Record<string, unknown> {
  if (stats.count === 0) {
    const empty: Record<string, unknown> = { count: 0, min_length: null, max_length: null, avg_length: null, entropy: 0 };
    if (agg.showDistribution) empty.distribution = null;
    return empty;
  }
  const shares = distribution(stats);
  const out: Record<string, unknown> = {
    count: stats.count, min_length: stats.minLength, max_length: stats.maxLength, avg_length: stats.totalLength / stats.count, entropy: entropy(shares),
  };
  if (agg.showDistribution) out.distribution = Object.fromEntries(shares);
  return out;
}
