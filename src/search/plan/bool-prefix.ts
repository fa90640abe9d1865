/**
 * `match_bool_prefix` on one field (and multi_match `bool_prefix`), as ES's MatchQueryParser
 * builds BOOLEAN_PREFIX: every token but the last is a term query (fuzzy with `fuzziness`), the
 * last a prefix query — constant score, the default rewrite; on search_as_you_type one term of
 * `._index_prefix` — unless the text goes on after it ("lap " means the word is complete: Lucene
 * compares the last token's end offset with the end of the text). `operator` and
 * `minimum_should_match` combine them as in `match`. Keyword fields take the whole text as a prefix.
 */
import { resolveMinimumShouldMatch } from '../../dsl/index.js';
import type { ResolvedField } from '../../index/index.js';
import type { PlanContext } from './context.js';
import type { Exec } from './exec-nodes.js';
import { asShardFailure } from './failures.js';
import { isTextLike } from './fields.js';
import { exactValueQuery, prefixQuery } from './term-level.js';
import { fuzzyOrTerm } from './fuzzy.js';
import { analyzeQueryText, boolOf, zeroTerms, type MatchOptions } from './text.js';

export function boolPrefixQuery(ctx: PlanContext, field: ResolvedField, text: string, boost: number, o: MatchOptions): Exec {
  if (!isTextLike(field)) return asShardFailure(ctx, o.lenient, () => exactValueQuery(ctx, field, text, boost));
  const tokens = analyzeQueryText(ctx, field, text, o.analyzer);
  if (tokens.length === 0) return zeroTerms(o.zeroTermsQuery, boost);
  const fuzzy = o.fuzziness !== null ? { fuzziness: o.fuzziness, prefixLength: o.prefixLength, maxExpansions: o.maxExpansions, transpositions: o.fuzzyTranspositions } : null;
  const last = tokens[tokens.length - 1];
  const clauses: Exec[] = tokens.slice(0, -1).map((t) => fuzzyOrTerm(ctx, field, t.term, boost, fuzzy));
  clauses.push(last.endOffset === text.length ? prefixQuery(ctx, field, last.term, boost, false) : fuzzyOrTerm(ctx, field, last.term, boost, fuzzy));
  if (clauses.length === 1) return clauses[0];
  if (o.operator === 'and') return boolOf(clauses, [], 0);
  return boolOf([], clauses, Math.max(1, resolveMinimumShouldMatch(o.minimumShouldMatch, clauses.length)));
}
