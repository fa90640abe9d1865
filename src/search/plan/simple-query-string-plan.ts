/**
 * `simple_query_string` → Exec (ES SimpleQueryStringBuilder.doToQuery + SimpleQueryStringQueryParser).
 * The syntax (dsl/query-string/simple.ts) asks for four kinds of leaves, each built over the
 * query's fields (`fields`, else `index.query.default_field`; `*` makes it lenient unless
 * `lenient` is set):
 * - a term: multi_match `most_fields` of the text (each field's match query with the
 *   `default_operator`; several fields summed, dis_max tie 1.0); analysing to nothing is no clause;
 * - a phrase: multi_match `phrase` with the slop (dis_max tie 0.0), on `field + quote_field_suffix`
 *   where that is mapped;
 * - `term~N`: a fuzzy query per field on the normalised term (N ≤ 2 edits), dis_max tie 1.0;
 * - `term*`: a constant-score prefix query per field (with `analyze_wildcard`, the analysed
 *   terms, the last one a prefix), dis_max tie 1.0.
 * `minimum_should_match` applies only when the whole query is a boolean query
 * (Queries.maybeApplyMinimumShouldMatch): the parser's, or a single field's analysed term.
 */
import { resolveMinimumShouldMatch, type BoostedField, type SimpleQueryStringQuery } from '../../dsl/index.js';
import { parseSimpleQueryString, type SqsLeafBuilder, type SqsNode } from '../../dsl/query-string/index.js';
import { EsError, IllegalArgumentError } from '../../errors/index.js';
import { runStages } from '../../analysis/index.js';
import { analysisOf, isAnalyzedTextType, type ResolvedField } from '../../index/index.js';
import type { PlanContext } from './context.js';
import { MATCH_NONE, type Exec } from './exec-nodes.js';
import { asShardFailure } from './failures.js';
import { defaultFieldSpecs, isTextLike, resolveFields, type TargetField } from './fields.js';
import { fuzzyOrTerm } from './fuzzy.js';
import { DEFAULT_MAX_CLAUSE_COUNT } from './clause-count.js';
import { phraseQuery } from './match-phrase.js';
import { combineGrouped } from './multi-match.js';
import { scoredTerm } from './scored-term.js';
import { keywordTerm, prefixQuery, requireTextLike } from './term-level.js';
import { analyzeQueryText, boolOf, byPosition, matchQuery, type MatchOptions } from './text.js';

/** A leaf's query, and when Lucene's query would be a BooleanQuery, how to rebuild it with a minimum_should_match. */
interface Leaf {
  readonly exec: Exec;
  readonly withMinimumShouldMatch: ((msm: string | number) => Exec) | null;
}

interface SqsPlanState {
  readonly ctx: PlanContext;
  readonly q: SimpleQueryStringQuery;
  readonly lenient: boolean;
  readonly fields: readonly TargetField[];
  readonly boost: number;
}

export function planSimpleQueryString(ctx: PlanContext, q: SimpleQueryStringQuery, boost: number): Exec {
  // An empty `fields` list is no list (SimpleQueryStringBuilder.doToQuery: fieldsAndWeights.isEmpty()).
  const specs: readonly BoostedField[] = q.fields !== null && q.fields.length > 0 ? q.fields : defaultFieldSpecs(ctx);
  const { fields } = resolveFields(ctx, specs);
  // QueryParserHelper.hasAllFieldsWildcard: querying every field is lenient unless told otherwise.
  const allFields = specs.some((s) => s.field === '*');
  const s: SqsPlanState = { ctx, q, lenient: q.lenient ?? allFields, fields, boost: Math.fround(boost) };
  const root = parseSimpleQueryString(q.query, q.flags, q.defaultOperator, leafBuilder(s), ctx.maxClauseCount ?? DEFAULT_MAX_CLAUSE_COUNT);
  if (root === null) return MATCH_NONE;
  if (q.minimumShouldMatch !== null) {
    if (root.kind === 'bool') return boolExec(s, root, q.minimumShouldMatch);
    if (root.kind === 'leaf' && root.query.withMinimumShouldMatch !== null) return root.query.withMinimumShouldMatch(q.minimumShouldMatch);
  }
  return toExec(s, root);
}

function toExec(s: SqsPlanState, node: SqsNode<Leaf>): Exec {
  switch (node.kind) {
    case 'leaf':
      return node.query.exec;
    case 'match_all':
      return { kind: 'match_all', score: s.boost };
    case 'not':
      // Lucene SimpleQueryParser: (x MUST_NOT, MatchAllDocsQuery SHOULD).
      return boolOf([], [{ kind: 'match_all', score: s.boost }], 1, [], [toExec(s, node.node)]);
    case 'bool':
      return boolExec(s, node, null);
  }
}

function boolExec(s: SqsPlanState, node: Extract<SqsNode<Leaf>, { kind: 'bool' }>, msmSpec: string | number | null): Exec {
  const must: Exec[] = [];
  const should: Exec[] = [];
  const mustNot: Exec[] = [];
  for (const c of node.clauses) (c.occur === 'must' ? must : c.occur === 'should' ? should : mustNot).push(toExec(s, c.node));
  let msm = should.length > 0 && must.length === 0 ? 1 : 0;
  if (msmSpec !== null) msm = Math.max(msm, resolveMinimumShouldMatch(msmSpec, should.length));
  return boolOf(must, should, msm, [], mustNot);
}

/**
 * A field that cannot take the leaf fails the search, or with `lenient` matches nothing
 * (SimpleQueryStringQueryParser.rethrowUnlessLenient).
 */
function perField<T extends Exec | null>(s: SqsPlanState, build: () => T): T | Exec {
  try {
    return s.lenient ? build() : asShardFailure(s.ctx, false, build as () => Exec) as T;
  } catch (e) {
    if (s.lenient && e instanceof EsError) return MATCH_NONE;
    throw e;
  }
}

function fieldBoost(s: SqsPlanState, t: TargetField): number {
  return Math.fround(s.boost * Math.fround(t.boost));
}

/** A term or phrase that the field's analyzer turns into no tokens (stop words, punctuation): no query. */
function analysesToNothing(s: SqsPlanState, field: ResolvedField, text: string, quoted: boolean): boolean {
  if (!isAnalyzedTextType(field.type) || !field.indexed) return false;
  try {
    return analyzeQueryText(s.ctx, field, text, s.q.analyzer, quoted).length === 0;
  } catch {
    return false; // the query itself reports it
  }
}

/**
 * Lucene's Analyzer.normalize, which SimpleQueryStringQueryParser applies to prefix and fuzzy
 * terms: the text as one token through the analyzer's normalizing token filters (lowercase,
 * asciifolding, …; char filters are not applied here), then a keyword field's normalizer as its
 * term and prefix queries apply it.
 */
function normalise(s: SqsPlanState, field: ResolvedField, text: string): string {
  let out = text;
  if (isAnalyzedTextType(field.type) || (field.type === 'keyword' && s.q.analyzer !== null)) {
    const analysis = analysisOf(field);
    const analyzer = analysis.analyzer(s.q.analyzer ?? field.searchAnalyzer);
    const tokenizer = analysis.tokenizer('keyword');
    if (analyzer !== undefined && tokenizer !== undefined) {
      const filters = analyzer.components.filters.filter((f) => f.normalizing);
      if (filters.length > 0) {
        const { streams } = runStages({ charFilters: [], tokenizer, filters }, out, false);
        out = streams[streams.length - 1].tokens.map((t) => t.term).join('');
      }
    } else {
      out = out.toLowerCase();
    }
  }
  return field.type === 'keyword' ? keywordTerm(field, out) : out;
}

function matchOptions(s: SqsPlanState, minimumShouldMatch: string | number | null): MatchOptions {
  return {
    operator: s.q.defaultOperator, minimumShouldMatch, analyzer: s.q.analyzer, lenient: s.lenient, zeroTermsQuery: 'none',
    fuzziness: null, prefixLength: 0, maxExpansions: 50, fuzzyTranspositions: true,
    autoGenerateSynonymsPhraseQuery: s.q.autoGenerateSynonymsPhraseQuery,
  };
}

/** The fields with `quote_field_suffix` applied where `field + suffix` is mapped (boosts of a shared target multiply). */
function quoteFields(s: SqsPlanState): readonly TargetField[] {
  const suffix = s.q.quoteFieldSuffix;
  if (suffix === null) return s.fields;
  const boosts = new Map<string, number>();
  for (const t of s.fields) {
    const path = s.ctx.mapping.fields.has(t.field.path + suffix) ? t.field.path + suffix : t.field.path;
    boosts.set(path, (boosts.get(path) ?? 1) * t.boost);
  }
  return [...boosts].map(([path, boost]) => ({ field: s.ctx.mapping.fields.get(path)!, boost }));
}

function leafBuilder(s: SqsPlanState): SqsLeafBuilder<Leaf> {
  const plain = (exec: Exec): Leaf => ({ exec, withMinimumShouldMatch: null });
  return {
    defaultQuery(text) {
      // MultiMatchQueryParser most_fields: no mapped field → nothing matches; no tokens anywhere → no clause.
      if (s.fields.length === 0) return plain(MATCH_NONE);
      const build = (t: TargetField, msm: string | number | null) => perField(s, () => matchQuery(s.ctx, t.field, text, fieldBoost(s, t), matchOptions(s, msm)));
      const live = s.fields.filter((t) => !analysesToNothing(s, t.field, text, false));
      if (live.length === 0) return null;
      const exec = combineGrouped(live.map((t) => build(t, null)), 1, MATCH_NONE);
      // One field, unboosted: MatchQueryParser's BooleanQuery is the query itself.
      const only = live.length === 1 && live[0].boost === 1 ? live[0] : null;
      return { exec, withMinimumShouldMatch: only === null ? null : (msm) => build(only, msm) };
    },
    phraseQuery(text, slop) {
      const fields = quoteFields(s);
      if (fields.length === 0) return plain(MATCH_NONE);
      const live = fields.filter((t) => !analysesToNothing(s, t.field, text, true));
      if (live.length === 0) return null;
      const queries = live.map((t) => perField(s, () => phraseQuery(s.ctx, t.field, text, fieldBoost(s, t), {
        slop, analyzer: s.q.analyzer, zeroTermsQuery: 'none', prefixMaxExpansions: null, lenient: s.lenient,
      })));
      return plain(combineGrouped(queries, 0, MATCH_NONE));
    },
    fuzzyQuery(text, edits) {
      const queries = s.fields.map((t) => perField(s, () => {
        requireTextLike(s.ctx, t.field, 'fuzzy');
        // Lucene's FuzzyQuery constructor checks.
        if (s.q.fuzzyMaxExpansions <= 0) throw new IllegalArgumentError('maxExpansions must be positive.');
        if (s.q.fuzzyPrefixLength < 0) throw new IllegalArgumentError('prefixLength cannot be negative.');
        return fuzzyOrTerm(s.ctx, t.field, normalise(s, t.field, text), fieldBoost(s, t), {
          fuzziness: String(edits), prefixLength: s.q.fuzzyPrefixLength, maxExpansions: s.q.fuzzyMaxExpansions, transpositions: s.q.fuzzyTranspositions,
        });
      }));
      return plain(combineGrouped(queries, 1, MATCH_NONE));
    },
    prefixQuery(text) {
      if (!s.q.analyzeWildcard) {
        const queries = s.fields.map((t) => perField(s, () => prefixQuery(s.ctx, t.field, normalise(s, t.field, text), fieldBoost(s, t), false)));
        return plain(combineGrouped(queries, 1, MATCH_NONE));
      }
      const leaves: Array<{ t: TargetField; exec: Exec }> = [];
      for (const t of s.fields) {
        const exec = perField(s, () => analyzedPrefix(s, t.field, text, fieldBoost(s, t), null));
        if (exec !== null) leaves.push({ t, exec });
      }
      const exec = combineGrouped(leaves.map((l) => l.exec), 1, MATCH_NONE);
      const only = leaves.length === 1 && leaves[0].t.boost === 1 ? leaves[0].t : null;
      return { exec, withMinimumShouldMatch: only === null ? null : (msm) => analyzedPrefix(s, only.field, text, fieldBoost(s, only), msm) ?? MATCH_NONE };
    },
  };
}

/**
 * SimpleQueryStringQueryParser.newPossiblyAnalyzedQuery (`analyze_wildcard`): the text analysed;
 * one term → a prefix query; several positions → a boolean query (`default_operator`) of their
 * terms, the last position's as prefixes. No tokens → no query (null).
 */
function analyzedPrefix(s: SqsPlanState, field: ResolvedField, text: string, boost: number, msmSpec: string | number | null): Exec | null {
  if (!isTextLike(field)) return MATCH_NONE; // a Lucene PrefixQuery on a field without terms
  const positions = byPosition(analyzeQueryText(s.ctx, field, text, s.q.analyzer));
  if (positions.length === 0) return null;
  const prefix = (term: string): Exec => ({ kind: 'prefix', field: field.path, prefix: normalise(s, field, term), caseInsensitive: false, score: Math.fround(boost) });
  if (positions.length === 1 && positions[0].length === 1) return prefix(positions[0][0].term);
  const clauses = positions.map((group, i) => {
    if (i === positions.length - 1) return group.length === 1 ? prefix(group[0].term) : boolOf([], group.map((tok) => prefix(tok.term)), 1);
    // Stacked terms (synonyms) at one position: Lucene's SynonymQuery, here the disjunction of their terms.
    const terms = group.map((tok) => scoredTerm(s.ctx, field.path, tok.term, boost));
    return terms.length === 1 ? terms[0] : boolOf([], terms, 1);
  });
  if (s.q.defaultOperator === 'and') return boolOf(clauses, [], 0);
  const msm = msmSpec === null ? 1 : Math.max(1, resolveMinimumShouldMatch(msmSpec, clauses.length));
  return boolOf([], clauses, msm);
}
