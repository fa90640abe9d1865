/**
 * Fuzzy term expansion as Lucene's FuzzyQuery + `top_terms_blended_freqs_N` rewrite (ES's default
 * for `fuzziness` in match queries and for the `fuzzy` query): terms within `maxEdits` (Damerau–Levenshtein when
 * transpositions are allowed) sharing the first `prefixLength` characters, at most
 * `maxExpansions` of them, best first; each scored as BM25 with the same blended document
 * frequency (the largest among the expansions) and boosted by its similarity
 * 1 − edits / min(candidate length, query length).
 *
 * Candidates come from a scan of the index-wide term dictionary (Lucene intersects a Levenshtein
 * automaton with the FST instead; this is simpler and fine for dictionaries of ~10⁵ terms).
 */
import { IllegalArgumentError } from '../../errors/index.js';
import type { Fuzziness } from '../../dsl/index.js';
import type { ResolvedField } from '../../index/index.js';
import type { PlanContext } from './context.js';
import { boolOf } from './bool-of.js';
import { MATCH_NONE, type Exec } from './exec-nodes.js';
import { scoredTerm } from './scored-term.js';
import { keywordTerm, requireTextLike } from './term-level.js';

/** ES `Fuzziness.asDistance`: AUTO → 0 edits for length 1–2, 1 for 3–5, 2 above (AUTO:low,high). */
export function maxEditsFor(fuzziness: Fuzziness, term: string): number {
  if (fuzziness === null) return 0;
  const length = [...term].length;
  const auto = /^AUTO(?::(\d+),(\d+))?$/.exec(fuzziness);
  if (auto) {
    const low = auto[1] !== undefined ? Number(auto[1]) : 3;
    const high = auto[2] !== undefined ? Number(auto[2]) : 6;
    return length < low ? 0 : length < high ? 1 : 2;
  }
  const n = Math.trunc(Number(fuzziness));
  if (!(n >= 0 && n <= 2)) throw new IllegalArgumentError(`Valid edit distances are [0, 1, 2] but was [${fuzziness}]`);
  return n;
}

/** Edit distance between code point arrays if ≤ k, else -1 (banded DP, optimal string alignment). */
export function boundedEditDistance(a: readonly number[], b: readonly number[], k: number, transpositions: boolean): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > k) return -1;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (transpositions && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > k) return -1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m] <= k ? prev[m] : -1;
}

export interface FuzzyExpansion {
  readonly term: string;
  readonly boost: number;
}

export function expandFuzzy(
  ctx: PlanContext, field: string, term: string, maxEdits: number, prefixLength: number, maxExpansions: number, transpositions: boolean,
): FuzzyExpansion[] {
  const query = [...term].map((c) => c.codePointAt(0)!);
  const prefix = String.fromCodePoint(...query.slice(0, prefixLength));
  const found: FuzzyExpansion[] = [];
  ctx.stats.forEachTerm(field, prefix, (candidate) => {
    if (!candidate.startsWith(prefix)) return false; // past the prefix range: stop
    const cps = [...candidate].map((c) => c.codePointAt(0)!);
    const ed = boundedEditDistance(query, cps, maxEdits, transpositions);
    if (ed >= 0) {
      const boost = ed === 0 ? 1 : Math.fround(1 - Math.fround(ed / Math.min(cps.length, query.length)));
      found.push({ term: candidate, boost });
    }
    return true;
  });
  // Best (highest boost) first, then term order, keeping maxExpansions (Lucene TopTermsRewrite).
  found.sort((x, y) => y.boost - x.boost || (x.term < y.term ? -1 : x.term > y.term ? 1 : 0));
  return found.slice(0, maxExpansions);
}

/** A term with optional fuzziness: the blended expansion of Lucene's fuzzy rewrite. */
export function fuzzyOrTerm(
  ctx: PlanContext, field: ResolvedField, term: string, boost: number,
  fuzzy: { fuzziness: Fuzziness; prefixLength: number; maxExpansions: number; transpositions: boolean } | null,
): Exec {
  const edits = fuzzy ? maxEditsFor(fuzzy.fuzziness, term) : 0;
  if (!fuzzy || edits === 0) return scoredTerm(ctx, field.path, term, boost);
  const expansions = expandFuzzy(ctx, field.path, term, edits, fuzzy.prefixLength, fuzzy.maxExpansions, fuzzy.transpositions);
  if (expansions.length === 0) return MATCH_NONE;
  let maxDf = 0;
  for (const e of expansions) maxDf = Math.max(maxDf, ctx.stats.docFreq(field.path, e.term));
  const clauses = expansions.map((e) => scoredTerm(ctx, field.path, e.term, Math.fround(boost * e.boost), maxDf));
  return clauses.length === 1 ? clauses[0] : boolOf([], clauses, 0);
}

/**
 * ES `fuzzy` (StringFieldType.fuzzyQuery): the value as it is (a keyword field's normalizer
 * applied), expanded as `match`'s fuzziness is (fuzzyOrTerm): Lucene's FuzzyQuery with the
 * blended top-terms rewrite.
 */
export function fuzzyQuery(ctx: PlanContext, field: ResolvedField | undefined, node: FuzzyOptions, boost: number): Exec {
  if (!field) return MATCH_NONE;
  requireTextLike(ctx, field, 'fuzzy');
  const term = field.type === 'keyword' ? keywordTerm(field, node.value) : node.value;
  return fuzzyOrTerm(ctx, field, term, boost, { fuzziness: node.fuzziness, prefixLength: node.prefixLength, maxExpansions: node.maxExpansions, transpositions: node.transpositions });
}

export interface FuzzyOptions {
  readonly value: string;
  readonly fuzziness: string;
  readonly prefixLength: number;
  readonly maxExpansions: number;
  readonly transpositions: boolean;
}
