/**
 * `multi_match` (ES `MultiMatchQueryParser`): one query per field of the type's kind, combined by
 * `combineGrouped` — a single query as is, tie_breaker 1 → a plain disjunction (sum), otherwise a
 * dis_max. `cross_fields` instead groups fields by analyzer and blends each term's statistics
 * across the group (ES `BlendedTermQuery`: every field sees the largest document frequency).
 */
import { resolveMinimumShouldMatch, type MultiMatchQuery } from '../../dsl/index.js';
import type { PlanContext } from './context.js';
import { MATCH_NONE, type Exec } from './exec-nodes.js';
import { searchAnalysisKey } from '../../index/index.js';
import { defaultFieldSpecs, isTextLike, resolveFields, type TargetField } from './fields.js';
import { boolPrefixQuery } from './bool-prefix.js';
import { phraseQuery } from './match-phrase.js';
import { scoredTerm } from './scored-term.js';
import { analyzeQueryText, boolOf, matchQuery, zeroTerms, type MatchOptions } from './text.js';

/** ES MultiMatchQueryBuilder.Type default tie breakers. */
const DEFAULT_TIE_BREAKER: Record<MultiMatchQuery['type'], number> = {
  best_fields: 0, most_fields: 1, cross_fields: 0, phrase: 0, phrase_prefix: 0, bool_prefix: 1,
};

export function combineGrouped(queries: Exec[], tieBreaker: number, zero: Exec): Exec {
  const live = queries.filter((q) => q.kind !== 'match_none');
  if (queries.length === 0) return zero;
  if (live.length === 0) return MATCH_NONE;
  if (queries.length === 1) return queries[0];
  if (tieBreaker === 1) return boolOf([], queries, 1);
  return { kind: 'dis_max', clauses: queries, tieBreaker };
}

function perFieldQuery(ctx: PlanContext, q: MultiMatchQuery, f: TargetField, text: string, opts: MatchOptions): Exec {
  const boost = Math.fround(Math.fround(q.boost) * Math.fround(f.boost));
  switch (q.type) {
    case 'phrase':
    case 'phrase_prefix':
      return phraseQuery(ctx, f.field, text, boost, {
        slop: q.slop, analyzer: q.analyzer, zeroTermsQuery: q.zeroTermsQuery,
        prefixMaxExpansions: q.type === 'phrase_prefix' ? q.maxExpansions : null, lenient: opts.lenient,
      });
    case 'bool_prefix':
      return boolPrefixQuery(ctx, f.field, text, boost, opts);
    default:
      return matchQuery(ctx, f.field, text, boost, opts);
  }
}

export function planMultiMatch(ctx: PlanContext, q: MultiMatchQuery): Exec {
  const specs = q.fields ?? defaultFieldSpecs(ctx);
  const { fields, usedWildcard } = resolveFields(ctx, specs);
  // Querying every field (`*`) makes ES lenient: fields that cannot take the value are skipped.
  const lenient = q.lenient || (usedWildcard && specs.some((s) => s.field === '*'));
  const opts: MatchOptions = { ...q, lenient };
  const text = String(q.query);
  const tieBreaker = q.tieBreaker ?? DEFAULT_TIE_BREAKER[q.type];
  const zero = zeroTerms(q.zeroTermsQuery, q.boost);
  if (fields.length === 0) return MATCH_NONE;
  if (q.type === 'cross_fields' && fields.length > 1) return crossFields(ctx, q, fields, text, opts, tieBreaker, zero);
  const candidates = lenient ? fields.filter((f) => f.field.indexed) : fields;
  const queries = candidates.map((f) => perFieldQuery(ctx, q, f, text, opts));
  return combineGrouped(queries, tieBreaker, zero);
}

export function crossFields(ctx: PlanContext, q: MultiMatchQuery, fields: TargetField[], text: string, opts: MatchOptions, tieBreaker: number, zero: Exec): Exec {
  const groups = new Map<string, TargetField[]>();
  const singles: Exec[] = [];
  for (const f of fields) {
    if (!isTextLike(f.field)) {
      singles.push(matchQuery(ctx, f.field, text, Math.fround(q.boost * f.boost), opts));
      continue;
    }
    const key = q.analyzer ?? (f.field.type === 'keyword' ? '__keyword__' : searchAnalysisKey(f.field));
    const g = groups.get(key);
    if (g) g.push(f);
    else groups.set(key, [f]);
  }
  const queries: Exec[] = [...singles];
  for (const group of groups.values()) {
    if (group.length === 1) {
      queries.push(matchQuery(ctx, group[0].field, text, Math.fround(q.boost * group[0].boost), opts));
      continue;
    }
    const tokens = analyzeQueryText(ctx, group[0].field, text, q.analyzer);
    if (tokens.length === 0) {
      queries.push(zero);
      continue;
    }
    const perTerm = tokens.map((t) => blendedTerm(ctx, group, t.term, q.boost, tieBreaker));
    if (perTerm.length === 1) queries.push(perTerm[0]);
    else if (q.operator === 'and') queries.push(boolOf(perTerm, [], 0));
    else queries.push(boolOf([], perTerm, Math.max(1, resolveMinimumShouldMatch(q.minimumShouldMatch, perTerm.length))));
  }
  return combineGrouped(queries, tieBreaker, zero);
}

/** ES `BlendedTermQuery.dismaxBlendedQuery`: df = min(maxDoc, max df over the fields). */
function blendedTerm(ctx: PlanContext, group: TargetField[], term: string, boost: number, tieBreaker: number): Exec {
  let maxDf = 0;
  let maxDoc = Infinity;
  const dfs = group.map((f) => {
    const df = ctx.stats.docFreq(f.field.path, term);
    maxDf = Math.max(maxDf, df);
    const fs = ctx.stats.fieldStats(f.field.path);
    if (df > 0) maxDoc = Math.min(maxDoc, Math.max(fs.docCount, 1), fs.sumTotalTermFreq);
    return df;
  });
  if (maxDf === 0) return MATCH_NONE;
  const blendedDf = Math.min(maxDf, maxDoc);
  const clauses = group
    .map((f, i) => (dfs[i] === 0 ? MATCH_NONE : scoredTerm(ctx, f.field.path, term, Math.fround(boost * f.boost), blendedDf)))
    .filter((e) => e.kind !== 'match_none');
  return clauses.length === 1 ? clauses[0] : { kind: 'dis_max', clauses, tieBreaker };
}

