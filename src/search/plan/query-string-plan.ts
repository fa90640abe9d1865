/**
 * `query_string` AST → Exec (ES QueryStringQueryParser): each term, phrase, prefix, wildcard, range
 * or exists node is built per target field — its own `field:` (wildcards expanded) or the query's
 * `fields` / `default_field` / the index's `index.query.default_field` — and several fields are
 * combined like multi_match of the query's `type` (dis_max with tie_breaker by default).
 * A whitespace run on one field is analysed as a whole and its terms join the enclosing boolean
 * query directly, so `minimum_should_match` counts them (ES docs, query_string "minimum_should_match").
 */
import { resolveMinimumShouldMatch, type BoostedField, type QueryStringQuery } from '../../dsl/index.js';
import { DEFAULT_FUZZINESS, parseQueryString, QueryStringSyntaxError, type Occur, type QsBool, type QsNode } from '../../dsl/query-string/index.js';
import { ParseError, QueryShardError, previewInput } from '../../errors/index.js';
import { isAnalyzedTextType, type ResolvedField } from '../../index/index.js';
import type { PlanContext } from './context.js';
import { MATCH_NONE, type Exec } from './exec-nodes.js';
import { defaultFieldSpecs, isTextLike, resolveFields, type TargetField } from './fields.js';
import { combineGrouped, crossFields } from './multi-match.js';
import { phraseQuery } from './match-phrase.js';
import { existsQuery, ID_FIELD, idsQuery, rangeQuery, regexpExec, wildcardQuery, prefixQuery } from './term-level.js';
import { DEFAULT_MAX_DETERMINIZED_STATES, REGEXP_FLAGS, checkRegexLength } from '../../common/pattern/index.js';
import { fuzzyOrTerm } from './fuzzy.js';
import { analyzeQueryText, boolOf, matchQuery, type MatchOptions } from './text.js';
import { asShardFailure } from './failures.js';


const DEFAULT_TIE: Record<string, number> = { best_fields: 0, most_fields: 1, cross_fields: 0, phrase: 0, phrase_prefix: 0, bool_prefix: 1 };

interface QsPlanState {
  readonly ctx: PlanContext;
  readonly q: QueryStringQuery;
  readonly lenient: boolean;
  readonly defaultTargets: TargetField[];
  readonly tieBreaker: number;
}

export function planQueryString(ctx: PlanContext, q: QueryStringQuery, boost: number): Exec {
  const specs: readonly BoostedField[] = q.fields ?? (q.defaultField !== null ? [{ field: q.defaultField, boost: 1 }] : defaultFieldSpecs(ctx));
  const { fields, usedWildcard } = resolveFields(ctx, specs);
  const allFields = usedWildcard && specs.some((s) => s.field === '*');
  const state: QsPlanState = {
    ctx, q, lenient: q.lenient ?? allFields, defaultTargets: fields, tieBreaker: q.tieBreaker ?? DEFAULT_TIE[q.type] ?? 0,
  };
  const root = parseSyntax(ctx, q);
  // An empty query string matches nothing in ES.
  if (root.clauses.length === 0) return MATCH_NONE;
  return planBool(state, root, Math.fround(boost), true);
}

/**
 * ES parses the query string while building each shard's query (QueryStringQueryBuilder.doToQuery):
 * a syntax error is query_shard_exception "Failed to parse query [...]" caused by Lucene's
 * ParseException "Cannot parse '...': ...".
 */
function parseSyntax(ctx: PlanContext, q: QueryStringQuery): QsBool {
  try {
    return parseQueryString(q.query, q.defaultOperator);
  } catch (e) {
    if (e instanceof QueryStringSyntaxError) throw new QueryShardError(`Failed to parse query [${previewInput(q.query)}]`, ctx.index, new ParseError(e.message));
    throw e;
  }
}

function planBool(s: QsPlanState, node: QsBool, boost: number, topLevel: boolean): Exec {
  const b = Math.fround(boost * Math.fround(node.boost ?? 1));
  const must: Exec[] = [];
  const should: Exec[] = [];
  const mustNot: Exec[] = [];
  const add = (occur: Occur, e: Exec) => (occur === 'must' ? must : occur === 'should' ? should : mustNot).push(e);
  for (const clause of node.clauses) {
    const n = clause.node;
    if (n.kind === 'term' && n.multiTerm && n.fuzziness === null) {
      const targets = targetsFor(s, n.field);
      if (targets.length === 1) {
        // One field: the run's terms are separate clauses of this boolean query.
        for (const e of runTerms(s, targets[0], n.text, Math.fround(b * Math.fround(n.boost ?? 1)))) add(clause.occur, e);
        continue;
      }
    }
    add(clause.occur, planNode(s, n, clause.occur === 'must_not' ? 0 : b));
  }
  if (must.length === 0 && should.length === 0 && mustNot.length > 0) {
    must.push({ kind: 'match_all', score: b }); // ES fixNegativeQueryIfNeeded
  }
  let msm = should.length > 0 && must.length === 0 ? 1 : 0;
  if (topLevel && s.q.minimumShouldMatch !== null) msm = Math.max(msm, resolveMinimumShouldMatch(s.q.minimumShouldMatch, should.length));
  if (must.length + should.length + mustNot.length === 1 && should.length === 1) return should[0];
  if (must.length === 1 && should.length === 0 && mustNot.length === 0) return must[0];
  return boolOf(must, should, msm, [], mustNot);
}

function targetsFor(s: QsPlanState, field: string | null): TargetField[] {
  if (field === null) return s.defaultTargets;
  return resolveFields(s.ctx, [{ field, boost: 1 }]).fields;
}

function matchOptions(s: QsPlanState, fuzziness: string | null): MatchOptions {
  return {
    operator: s.q.defaultOperator, minimumShouldMatch: null, analyzer: s.q.analyzer, lenient: s.lenient, zeroTermsQuery: 'none',
    fuzziness, prefixLength: 0, maxExpansions: 50, fuzzyTranspositions: true,
  };
}

/** The clauses a whitespace run produces on one field (each token a term; non-text: one exact value). */
function runTerms(s: QsPlanState, t: TargetField, text: string, boost: number): Exec[] {
  const b = Math.fround(boost * t.boost);
  if (!isAnalyzedTextType(t.field.type)) return [matchQuery(s.ctx, t.field, text, b, matchOptions(s, null))];
  return analyzeQueryText(s.ctx, t.field, text, s.q.analyzer).map((tok) => fuzzyOrTerm(s.ctx, t.field, tok.term, b, null));
}

/** Combines per-field queries of one node the way multi_match of the query's type would. */
function perField(s: QsPlanState, field: string | null, build: (t: TargetField, boost: number) => Exec, boost: number): Exec {
  const targets = targetsFor(s, field);
  if (targets.length === 0) return MATCH_NONE;
  const queries = targets.map((t) => asShardFailure(s.ctx, s.lenient, () => build(t, Math.fround(boost * Math.fround(t.boost)))));
  return combineGrouped(queries, s.tieBreaker, MATCH_NONE);
}

/** Expanded terms (prefix, wildcard) are normalised like the analyzer would: lowercased on text. */
function normalise(field: ResolvedField, text: string): string {
  return isAnalyzedTextType(field.type) ? text.toLowerCase() : text;
}

/** QueryStringQueryParser.getRegexpQuerySingle: Lucene's RegExp.ALL, the default state limit. */
const QS_REGEXP = { flags: REGEXP_FLAGS.ALL, caseInsensitive: false, maxDeterminizedStates: DEFAULT_MAX_DETERMINIZED_STATES };

function planNode(s: QsPlanState, n: QsNode, boost: number): Exec {
  const b = Math.fround(boost * Math.fround(n.boost ?? 1));
  switch (n.kind) {
    case 'bool':
      return planBool(s, n, boost, false);
    case 'match_all':
      return { kind: 'match_all', score: b };
    case 'term': {
      if (n.field === ID_FIELD) return idsQuery([n.text], b);
      const fuzziness = n.fuzziness === null ? null : n.fuzziness === DEFAULT_FUZZINESS ? (s.q.fuzziness ?? 'AUTO') : n.fuzziness.toUpperCase();
      const targets = targetsFor(s, n.field);
      if (s.q.type === 'cross_fields' && targets.length > 1 && fuzziness === null) {
        return crossFields(s.ctx, { ...queryAsMultiMatch(s, n.text), boost: b }, targets, n.text, matchOptions(s, null), s.tieBreaker, MATCH_NONE);
      }
      return perField(s, n.field, (t, fb) => matchQuery(s.ctx, t.field, n.text, fb, matchOptions(s, fuzziness)), b);
    }
    case 'phrase':
      return perField(s, n.field, (t, fb) => phraseQuery(s.ctx, t.field, n.text, fb, {
        slop: n.slop ?? s.q.phraseSlop, analyzer: s.q.analyzer, zeroTermsQuery: 'none', prefixMaxExpansions: null, lenient: s.lenient,
      }), b);
    case 'prefix':
      return perField(s, n.field, (t, fb) => (isTextLike(t.field) ? prefixQuery(s.ctx, t.field, normalise(t.field, n.text), fb, false) : MATCH_NONE), b);
    case 'wildcard':
      return perField(s, n.field, (t, fb) => (isTextLike(t.field) ? wildcardQuery(s.ctx, t.field, normalise(t.field, n.pattern), fb, false) : MATCH_NONE), b);
    case 'regexp':
      // QueryStringQueryParser.getRegexpQuery: the length is checked before leniency applies.
      return asShardFailure(s.ctx, false, () => {
        checkRegexLength(n.pattern, s.ctx.maxRegexLength, '[query_string]');
        return perField(s, n.field, (t, fb) => (isTextLike(t.field) ? asShardFailure(s.ctx, s.lenient, () => regexpExec(t.field, n.pattern, fb, QS_REGEXP)) : MATCH_NONE), b);
      });
    case 'range':
      return perField(s, n.field, (t, fb) => rangeQuery(s.ctx, t.field, {
        gte: n.includeLower ? n.lower : null, gt: n.includeLower ? null : n.lower,
        lte: n.includeUpper ? n.upper : null, lt: n.includeUpper ? null : n.upper,
        format: null, timeZone: null,
      }, fb), b);
    case 'exists':
      return existsQuery(s.ctx, n.field, b);
  }
}

function queryAsMultiMatch(s: QsPlanState, text: string) {
  return {
    kind: 'multi_match' as const, query: text, fields: null, type: 'cross_fields' as const, operator: s.q.defaultOperator,
    minimumShouldMatch: null, tieBreaker: s.tieBreaker, fuzziness: null, prefixLength: 0, maxExpansions: 50,
    fuzzyTranspositions: true, autoGenerateSynonymsPhraseQuery: true, slop: 0, analyzer: s.q.analyzer, lenient: s.lenient, zeroTermsQuery: 'none' as const,
    boost: 1, name: null,
  };
}

