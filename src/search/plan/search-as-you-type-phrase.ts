/**
 * Phrase and phrase prefix queries on search_as_you_type fields (ES SearchAsYouTypeFieldType,
 * ShingleFieldType, PrefixFieldType):
 * - on the root, a phrase of n ≥ 2 positions without slop or gaps becomes a phrase over the
 *   shingles of the subfield of size min(n, max_shingle_size) — "a b c" is one term of `._3gram` —
 *   and a phrase prefix the same, with its last shingle looked up whole in `._index_prefix` (the
 *   edge n-grams of every shingle), so no expansion limit applies; anything else stays on the root;
 * - on a shingle subfield, a phrase prefix without slop takes its last shingle from `._index_prefix`;
 * - `._index_prefix` takes no phrase queries at all.
 * Returns null when the query is built on the field itself, as for any text field.
 */
import { fixedShingleAnalyzer, type Analyzer } from '../../analysis/index.js';
import { prefixFieldPath, shingleFieldPath, type ResolvedField, type SearchAsYouTypeStructure } from '../../index/index.js';
import type { PlanContext } from './context.js';
import type { Exec } from './exec-nodes.js';
import { notTextError, phraseOf, phrasePrefixOf } from './phrase.js';
import { scoredTerm } from './scored-term.js';
import { analyzeWith, type QueryToken } from './text.js';

/**
 * The shingle size a root query delegates to (SearchAsYouTypeFieldType.shingleFieldForPositions),
 * or null when it stays on the root: slop, a position gap (hasGaps: a token more than one position
 * after the previous one, the first counting from before position 0), or a single position.
 */
function delegatedShingleSize(s: SearchAsYouTypeStructure, tokens: readonly QueryToken[], slop: number): number | null {
  if (slop > 0) return null;
  let previous = -1;
  for (const t of tokens) {
    if (t.position - previous > 1) return null;
    previous = t.position;
  }
  const positions = previous + 1;
  if (positions <= 1) return null;
  return Math.min(positions, s.maxShingleSize);
}

/** The query's own analysis wrapped in Lucene's FixedShingleFilter with its defaults, as ES re-reads the token stream. */
function shingled(analyzer: Analyzer, size: number, text: string): QueryToken[] {
  return analyzeWith(fixedShingleAnalyzer(analyzer.name, analyzer, { size, separator: ' ', filler: '_', trailingPositions: null }), text);
}

function shingleField(ctx: PlanContext, s: SearchAsYouTypeStructure, size: number): ResolvedField {
  return ctx.mapping.fields.get(shingleFieldPath(s.root, size))!;
}

export function searchAsYouTypePhrase(
  ctx: PlanContext, field: ResolvedField, analyzer: Analyzer, text: string, tokens: readonly QueryToken[], boost: number, slop: number,
): Exec | null {
  const s = field.searchAsYouType;
  if (s === null || s.role === 'shingle') return null;
  if (s.role === 'index_prefix') throw notTextError('phrase', field);
  const size = delegatedShingleSize(s, tokens, slop);
  if (size === null) return null;
  const target = shingleField(ctx, s, size);
  const shingles = shingled(analyzer, size, text);
  return shingles.length === 1 ? scoredTerm(ctx, target.path, shingles[0].term, boost) : phraseOf(ctx, target, shingles, boost, 0);
}

export function searchAsYouTypePhrasePrefix(
  ctx: PlanContext, field: ResolvedField, analyzer: Analyzer, text: string, tokens: readonly QueryToken[], boost: number, slop: number,
  maxExpansions: number,
): Exec | null {
  const s = field.searchAsYouType;
  if (s === null) return null;
  if (s.role === 'index_prefix') throw notTextError('phrase prefix', field);
  if (s.role === 'shingle') return phrasePrefixOf(ctx, field, tokens, boost, slop, maxExpansions, slop > 0 ? null : prefixFieldPath(s.root));
  const size = delegatedShingleSize(s, tokens, slop);
  if (size === null) return null;
  const shingles = shingled(analyzer, size, text);
  return phrasePrefixOf(ctx, shingleField(ctx, s, size), shingles, boost, 0, maxExpansions, prefixFieldPath(s.root));
}
