/**
 * Phrase query builders (Lucene PhraseQuery, ES MultiPhrasePrefixQuery and the field-masked span
 * phrase of TextFieldMapper.createPhrasePrefixQuery): a phrase is scored by BM25 with the summed idf
 * of its terms and the phrase frequency (Lucene `PhraseWeight`). A prefix expands the last term over
 * the index-wide dictionary (`max_expansions`, in term order, as `MultiPhrasePrefixQuery` does),
 * unless an edge n-gram field holds the prefix as one term (search_as_you_type's `._index_prefix`).
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { fieldTypeName, prefixLengthWithinBounds, type ResolvedField } from '../../index/index.js';
import { averageFieldLength, bm25Idf } from '../bm25.js';
import type { PlanContext } from './context.js';
import { MATCH_NONE, type Exec, type PhraseExec } from './exec-nodes.js';
import { scoredTerm, withSimilarity } from './scored-term.js';
import { boolOf } from './bool-of.js';
import type { QueryToken } from './query-token.js';

export function expandPrefix(ctx: PlanContext, field: string, prefix: string, maxExpansions: number): string[] {
  const out: string[] = [];
  ctx.stats.forEachTerm(field, prefix, (term) => {
    if (!term.startsWith(prefix)) return false;
    out.push(term);
    return out.length < maxExpansions;
  });
  return out;
}

/** ES MappedFieldType's refusal of phrase queries on fields that are not text. */
export function notTextError(what: 'phrase' | 'phrase prefix', field: ResolvedField): IllegalArgumentError {
  return new IllegalArgumentError(`Can only use ${what} queries on text fields - not on [${field.path}] which is of type [${fieldTypeName(field)}]`);
}

/**
 * Lucene's PhraseQuery over the tokens' positions (TextFieldMapper.createPhraseQuery), or with
 * `prefix` ES's phrase with a field-masked last term: the last token looked up as one term of
 * `prefix.field` at the same position (TextFieldMapper.createPhrasePrefixQuery's span query).
 */
export function phraseOf(ctx: PlanContext, field: ResolvedField, tokens: readonly QueryToken[], boost: number, slop: number,
  prefix: { readonly field: string; readonly terms: readonly string[] } | null = null): Exec {
  const fs = ctx.stats.fieldStats(field.path);
  // Lucene sums the idf of every term of the phrase over the phrase field's document count
  // (expansions included for the prefix position, each with its own document frequency).
  let idf = 0;
  const fixed = prefix ? tokens.slice(0, -1) : tokens;
  for (const t of fixed) {
    const df = ctx.stats.docFreq(field.path, t.term);
    if (df === 0) return MATCH_NONE;
    idf += bm25Idf(df, fs.docCount);
  }
  if (prefix) for (const t of prefix.terms) idf += bm25Idf(ctx.stats.docFreq(prefix.field, t), fs.docCount);
  const first = tokens[0].position;
  const exec: PhraseExec = {
    kind: 'phrase',
    field: field.path,
    terms: tokens.map((t) => t.term),
    positions: tokens.map((t) => t.position - first),
    slop,
    weight: Math.fround(Math.fround(boost) * Math.fround(idf)),
    avgdl: averageFieldLength(fs.sumTotalTermFreq, fs.docCount),
    prefixExpansions: prefix ? prefix.terms : null,
    prefixField: prefix && prefix.field !== field.path ? prefix.field : null,
  };
  return withSimilarity(ctx, field.path, exec, boost);
}

/**
 * TextFieldMapper.createPhrasePrefixQuery: with an edge n-gram `prefixField` and a last token short
 * enough to be indexed there whole, the last token is one term of that field (alone: a term query
 * on it); otherwise ES's MultiPhrasePrefixQuery expands it over the field's terms.
 */
export function phrasePrefixOf(ctx: PlanContext, field: ResolvedField, tokens: readonly QueryToken[], boost: number, slop: number,
  maxExpansions: number, prefixField: string | null): Exec {
  const last = tokens[tokens.length - 1].term;
  if (prefixField !== null && prefixLengthWithinBounds(last.length)) {
    if (tokens.length === 1) return scoredTerm(ctx, prefixField, last, boost);
    return ctx.stats.docFreq(prefixField, last) === 0 ? MATCH_NONE : phraseOf(ctx, field, tokens, boost, slop, { field: prefixField, terms: [last] });
  }
  const expansions = expandPrefix(ctx, field.path, last, maxExpansions);
  if (expansions.length === 0) return MATCH_NONE;
  if (tokens.length === 1) {
    // One position: Lucene's MultiPhraseQuery rewrites to a disjunction of the expansions.
    return expansions.length === 1 ? scoredTerm(ctx, field.path, expansions[0], boost) : boolOf([], expansions.map((t) => scoredTerm(ctx, field.path, t, boost)), 1);
  }
  return phraseOf(ctx, field, tokens, boost, slop, { field: field.path, terms: expansions });
}
