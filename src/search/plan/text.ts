/**
 * Full-text query construction (Lucene `QueryBuilder` + ES `MatchQueryParser`): analyse the query
 * text with the field's search analyzer, then one token → a term query, several → a boolean query
 * (SHOULD for `or`, MUST for `and`, with `minimum_should_match`), quoted/phrase → a phrase query.
 * Non-text fields take the whole value as one exact term (keyword) or point (numbers, dates).
 */
import type { Analyzer } from '../../analysis/index.js';
import { IllegalArgumentError, TooManyClausesError } from '../../errors/index.js';
import { resolveMinimumShouldMatch, type Fuzziness, type MinimumShouldMatch, type Operator } from '../../dsl/index.js';
import { analysisOf, completionAnalysis, searchAnalyzerFor, type ResolvedField } from '../../index/index.js';
import type { PlanContext } from './context.js';
import { MATCH_NONE, type Exec } from './exec-nodes.js';
import { asShardFailure } from './failures.js';
import { scoredTerm } from './scored-term.js';
import { fuzzyOrTerm } from './fuzzy.js';
import { exactValueQuery, keywordTerm } from './term-level.js';
import { isTextLike } from './fields.js';
import { DEFAULT_MAX_CLAUSE_COUNT } from './clause-count.js';
import { boolOf, disjunction } from './bool-of.js';
import type { QueryToken } from './query-token.js';
import { graphSegments, hasSidePaths } from './token-graph-query.js';
import { phraseOf } from './phrase.js';

export type { QueryToken } from './query-token.js';
export { boolOf, disjunction } from './bool-of.js';

/** The analyzer for a query on `field`: the request's `analyzer`, else the field's (quote) search analyzer. */
export function queryAnalyzer(field: ResolvedField, analyzerOverride: string | null, quoted: boolean): Analyzer {
  if (analyzerOverride === null) return searchAnalyzerFor(field, quoted);
  const analyzer = analysisOf(field).analyzer(analyzerOverride);
  if (!analyzer) throw new IllegalArgumentError(`failed to find analyzer [${analyzerOverride}]`);
  return analyzer;
}

/**
 * The text's tokens. Query text is analysed on the coordinator, so a huge one (a 2 MB token is
 * 8,000+ tokens of 255 characters) is not analysed and planned whole: each token is at least one
 * clause and Lucene refuses a query with more than `maxTokens` (`max_clause_count`), so analysis
 * stops at the first token past it with the error the final clause count would give.
 */
export function analyzeWith(analyzer: Analyzer, text: string, maxTokens = Infinity): QueryToken[] {
  const tokens: QueryToken[] = [];
  analyzer.analyze(text, (term, position, _start, endOffset, positionLength = 1) => {
    if (tokens.length === maxTokens) throw new TooManyClausesError(maxTokens);
    tokens.push(positionLength > 1 ? { term, position, endOffset, positionLength } : { term, position, endOffset });
  });
  return tokens;
}

export function analyzeQueryText(ctx: PlanContext, field: ResolvedField, text: string, analyzerOverride: string | null, quoted = false): QueryToken[] {
  if (field.type === 'keyword') return [{ term: keywordTerm(field, text), position: 0, endOffset: text.length }];
  return analyzeWith(queryAnalyzer(field, analyzerOverride, quoted), text, ctx.maxClauseCount ?? DEFAULT_MAX_CLAUSE_COUNT);
}

/** Tokens grouped by position, in order (a group of several: stacked synonyms). */
export function byPosition(tokens: readonly QueryToken[]): QueryToken[][] {
  const groups: QueryToken[][] = [];
  for (const t of tokens) {
    const last = groups[groups.length - 1];
    if (last !== undefined && last[0].position === t.position) last.push(t);
    else groups.push([t]);
  }
  return groups;
}

export interface MatchOptions {
  readonly operator: Operator;
  readonly minimumShouldMatch: MinimumShouldMatch;
  readonly analyzer: string | null;
  readonly lenient: boolean;
  readonly zeroTermsQuery: 'none' | 'all';
  readonly fuzziness: Fuzziness;
  readonly prefixLength: number;
  readonly maxExpansions: number;
  readonly fuzzyTranspositions: boolean;
  /** A multi-word synonym path as a phrase (ES's default) or, when false, as all of its terms. */
  readonly autoGenerateSynonymsPhraseQuery?: boolean;
}

export function zeroTerms(zeroTermsQuery: 'none' | 'all', boost: number): Exec {
  return zeroTermsQuery === 'all' ? { kind: 'match_all', score: Math.fround(boost) } : MATCH_NONE;
}

/** ES `match` on one field. */
export function matchQuery(ctx: PlanContext, field: ResolvedField, text: string, boost: number, o: MatchOptions): Exec {
  // DenseVectorFieldType.termQuery refuses before any check of `index` (exactValueQuery).
  if (!field.indexed && field.type !== 'dense_vector') throw new IllegalArgumentError(`Cannot search on field [${field.path}] since it is not indexed.`);
  if (field.type === 'completion' && o.analyzer === null) {
    // The field's search analyzer is a CompletionAnalyzer: one token, the whole text's analyzed form.
    const form = completionAnalysis(field, field.searchAnalyzer)(text);
    return form === null ? zeroTerms(o.zeroTermsQuery, boost) : scoredTerm(ctx, field.path, form, boost);
  }
  if (!isTextLike(field)) return asShardFailure(ctx, o.lenient, () => exactValueQuery(ctx, field, text, boost));
  const tokens = analyzeQueryText(ctx, field, text, o.analyzer);
  if (tokens.length === 0) return zeroTerms(o.zeroTermsQuery, boost);
  const fuzzy = o.fuzziness !== null ? { fuzziness: o.fuzziness, prefixLength: o.prefixLength, maxExpansions: o.maxExpansions, transpositions: o.fuzzyTranspositions } : null;
  if (tokens.length === 1) return fuzzyOrTerm(ctx, field, tokens[0].term, boost, fuzzy);
  // Tokens stacked at one position (synonyms) are alternatives: any of them matches that position
  // (Lucene QueryBuilder makes them one SynonymQuery; here a disjunction of their terms). Where a
  // multi-word synonym makes the tokens a graph, each stretch with side paths is one clause: the
  // disjunction of its paths, each a phrase (Lucene analyzeGraphBoolean, ES's default
  // auto_generate_synonyms_phrase_query) or, with that option off, all of the path's terms.
  const position = (group: readonly QueryToken[]): Exec => {
    const terms = group.map((t) => fuzzyOrTerm(ctx, field, t.term, boost, fuzzy));
    return terms.length === 1 ? terms[0] : boolOf([], terms, 1);
  };
  const pathQuery = (path: readonly QueryToken[]): Exec => {
    if (path.length === 1) return fuzzyOrTerm(ctx, field, path[0].term, boost, fuzzy);
    if (o.autoGenerateSynonymsPhraseQuery !== false) return phraseOf(ctx, field, path, boost, 0);
    return boolOf(path.map((t) => fuzzyOrTerm(ctx, field, t.term, boost, fuzzy)), [], 0);
  };
  const clauses = hasSidePaths(tokens)
    ? graphSegments(tokens, ctx.maxClauseCount ?? DEFAULT_MAX_CLAUSE_COUNT).map((segment) => segment.paths === null
      ? position(segment.tokens)
      : disjunction(segment.paths.map(pathQuery)))
    : byPosition(tokens).map(position);
  if (clauses.length === 1) return clauses[0];
  if (o.operator === 'and') return boolOf(clauses, [], 0);
  return boolOf([], clauses, Math.max(1, resolveMinimumShouldMatch(o.minimumShouldMatch, clauses.length)));
}
