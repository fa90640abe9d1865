/**
 * `match_phrase` / `match_phrase_prefix` on one field (and quoted query_string text), as ES's
 * MatchQueryParser builds them: the text is analysed with the quote analyzer; one token is a term
 * query (for a prefix, the disjunction of its expansions), several a phrase. Only text fields take
 * phrase prefixes; a phrase on a keyword or numeric field is its exact value. search_as_you_type
 * fields first try their shingle subfields (search-as-you-type-phrase.ts). Text that a
 * synonym_graph filter turns into a token graph is the disjunction of the graph's phrases.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import type { ResolvedField } from '../../index/index.js';
import type { PlanContext } from './context.js';
import type { Exec } from './exec-nodes.js';
import { asShardFailure } from './failures.js';
import { isTextLike } from './fields.js';
import { notTextError, phraseOf, phrasePrefixOf } from './phrase.js';
import { scoredTerm } from './scored-term.js';
import { searchAsYouTypePhrase, searchAsYouTypePhrasePrefix } from './search-as-you-type-phrase.js';
import { exactValueQuery } from './term-level.js';
import { analyzeQueryText, disjunction, queryAnalyzer, zeroTerms } from './text.js';
import { hasSidePaths, phrasesOverGraph } from './token-graph-query.js';
import { DEFAULT_MAX_CLAUSE_COUNT } from './clause-count.js';

export interface PhraseOptions {
  readonly slop: number;
  readonly analyzer: string | null;
  readonly zeroTermsQuery: 'none' | 'all';
  /** Set for match_phrase_prefix: expand the last term. */
  readonly prefixMaxExpansions: number | null;
  /** Fields that cannot take the query match nothing instead of failing the search. */
  readonly lenient: boolean;
}

export function phraseQuery(ctx: PlanContext, field: ResolvedField, text: string, boost: number, o: PhraseOptions): Exec {
  const prefix = o.prefixMaxExpansions !== null;
  if (!isTextLike(field)) {
    // Numbers, dates, booleans analyse to their one exact value, which a phrase matches as is.
    return asShardFailure(ctx, o.lenient, () => {
      if (prefix) throw notTextError('phrase prefix', field);
      return exactValueQuery(ctx, field, text, boost);
    });
  }
  if (!field.indexed) throw new IllegalArgumentError(`Cannot search on field [${field.path}] since it is not indexed.`);
  const tokens = analyzeQueryText(ctx, field, text, o.analyzer, true);
  if (tokens.length === 0) return zeroTerms(o.zeroTermsQuery, boost);
  return asShardFailure(ctx, o.lenient, () => {
    if (prefix) {
      if (field.type === 'keyword') throw notTextError('phrase prefix', field);
      return searchAsYouTypePhrasePrefix(ctx, field, queryAnalyzer(field, o.analyzer, true), text, tokens, boost, o.slop, o.prefixMaxExpansions!)
        ?? phrasePrefixOf(ctx, field, tokens, boost, o.slop, o.prefixMaxExpansions!, null);
    }
    if (hasSidePaths(tokens)) {
      // A multi-word synonym made the text a graph: any of its phrases matches.
      const phrases = phrasesOverGraph(tokens, ctx.maxClauseCount ?? DEFAULT_MAX_CLAUSE_COUNT);
      return disjunction(phrases.map((p) => (p.length === 1 ? scoredTerm(ctx, field.path, p[0].term, boost) : phraseOf(ctx, field, p, boost, o.slop))));
    }
    if (tokens.length === 1) return scoredTerm(ctx, field.path, tokens[0].term, boost);
    return searchAsYouTypePhrase(ctx, field, queryAnalyzer(field, o.analyzer, true), text, tokens, boost, o.slop) ?? phraseOf(ctx, field, tokens, boost, o.slop);
  });
}

