/**
 * Phrase queries (`match_phrase`, `match_phrase_prefix`, quoted query_string text) and
 * `match_bool_prefix`. A phrase is scored by BM25 with the summed idf of its terms and the phrase
 * frequency (Lucene `PhraseWeight`); the prefix variants expand their last term over the index-wide
 * dictionary (`max_expansions`, in term order, as ES's `MultiPhrasePrefixQuery` does).
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { resolveMinimumShouldMatch } from '../../dsl/index.js';
import type { ResolvedField } from '../../index/index.js';
import { averageFieldLength, bm25Idf } from '../bm25.js';
import type { PlanContext } from './context.js';
import { MATCH_NONE, type Exec, type PhraseExec } from './exec-nodes.js';
import { asShardFailure } from './failures.js';
import { scoredTerm } from './scored-term.js';
import { exactValueQuery } from './term-level.js';
import { analyzeQueryText, boolOf, fuzzyOrTerm, zeroTerms, type MatchOptions } from './text.js';

export function expandPrefix(ctx: PlanContext, field: string, prefix: string, maxExpansions: number): string[] {
  const out: string[] = [];
  ctx.stats.forEachTerm(field, prefix, (term) => {
    if (!term.startsWith(prefix)) return false;
    out.push(term);
    return out.length < maxExpansions;
  });
  return out;
}

export interface PhraseOptions {
  readonly slop: number;
  readonly analyzer: string | null;
  readonly zeroTermsQuery: 'none' | 'all';
  /** Set for match_phrase_prefix: expand the last term. */
  readonly prefixMaxExpansions: number | null;
}

export function phraseQuery(ctx: PlanContext, field: ResolvedField, text: string, boost: number, o: PhraseOptions): Exec {
  if (field.type !== 'text' && field.type !== 'keyword') {
    return asShardFailure(ctx, false, () => exactValueQuery(ctx, field, text, boost));
  }
  if (!field.indexed) throw new IllegalArgumentError(`Cannot search on field [${field.path}] since it is not indexed.`);
  const tokens = analyzeQueryText(field, text, o.analyzer, true);
  if (tokens.length === 0) return zeroTerms(o.zeroTermsQuery, boost);
  if (field.type === 'keyword' && o.prefixMaxExpansions === null) return scoredTerm(ctx, field.path, tokens[0].term, boost);
  if (field.type === 'keyword') {
    return { t: 'prefix', field: field.path, prefix: tokens[0].term, caseInsensitive: false, score: Math.fround(boost) };
  }
  let expansions: string[] | null = null;
  if (o.prefixMaxExpansions !== null) {
    expansions = expandPrefix(ctx, field.path, tokens[tokens.length - 1].term, o.prefixMaxExpansions);
    if (expansions.length === 0) return MATCH_NONE;
    if (tokens.length === 1) {
      // A one-word phrase prefix is a disjunction of the expansions (ES rewrites it so).
      return expansions.length === 1 ? scoredTerm(ctx, field.path, expansions[0], boost) : boolOf([], expansions.map((t) => scoredTerm(ctx, field.path, t, boost)), 1);
    }
  } else if (tokens.length === 1) {
    return scoredTerm(ctx, field.path, tokens[0].term, boost);
  }
  const fs = ctx.stats.fieldStats(field.path);
  // Lucene sums the idf of every term of the phrase (expansions included for the prefix position).
  let idf = 0;
  const fixed = expansions ? tokens.slice(0, -1) : tokens;
  for (const t of fixed) {
    const df = ctx.stats.docFreq(field.path, t.term);
    if (df === 0) return MATCH_NONE;
    idf += bm25Idf(df, fs.docCount);
  }
  if (expansions) for (const t of expansions) idf += bm25Idf(ctx.stats.docFreq(field.path, t), fs.docCount);
  const first = tokens[0].position;
  const exec: PhraseExec = {
    t: 'phrase',
    field: field.path,
    terms: tokens.map((t) => t.term),
    positions: tokens.map((t) => t.position - first),
    slop: o.slop,
    weight: Math.fround(Math.fround(boost) * Math.fround(idf)),
    avgdl: averageFieldLength(fs.sumTotalTermFreq, fs.docCount),
    prefixExpansions: expansions,
  };
  return exec;
}

/** `match_bool_prefix`: all terms but the last as in `match`, the last as a constant-score prefix. */
export function boolPrefixQuery(ctx: PlanContext, field: ResolvedField, text: string, boost: number, o: MatchOptions): Exec {
  if (field.type !== 'text' && field.type !== 'keyword') {
    return asShardFailure(ctx, o.lenient, () => exactValueQuery(ctx, field, text, boost));
  }
  const tokens = analyzeQueryText(field, text, o.analyzer);
  if (tokens.length === 0) return zeroTerms(o.zeroTermsQuery, boost);
  const fuzzy = o.fuzziness !== null ? { fuzziness: o.fuzziness, prefixLength: o.prefixLength, maxExpansions: o.maxExpansions, transpositions: o.fuzzyTranspositions } : null;
  const last = tokens[tokens.length - 1].term;
  const clauses: Exec[] = tokens.slice(0, -1).map((t) => fuzzyOrTerm(ctx, field, t.term, boost, fuzzy));
  clauses.push({ t: 'prefix', field: field.path, prefix: last, caseInsensitive: false, score: Math.fround(boost) });
  if (clauses.length === 1) return clauses[0];
  if (o.operator === 'and') return boolOf(clauses, [], 0);
  return boolOf([], clauses, Math.max(1, resolveMinimumShouldMatch(o.minimumShouldMatch, clauses.length)));
}
