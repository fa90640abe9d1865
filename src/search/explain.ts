/**
 * Score explanations for one document of one segment (Lucene `Weight.explain`, what ES's
 * `_explain` API and `explain: true` return). Every node's value is the score its own scorer gives
 * the document — the same scorers, built the same way, the query phase runs — so the root's value
 * is the hit's `_score` to the bit; the details beneath a leaf (idf, tf, freq, norms, feature
 * values) are recomputed from the segment and the index-wide statistics to show how it came about.
 * Descriptions follow Lucene's wording (BM25Similarity, BooleanWeight, DisjunctionMaxWeight,
 * FeatureField), queries are printed as Lucene's `toString` prints them.
 */
import { LENGTH_TABLE, decodeFeatureWeight, type Segment } from '../index/index.js';
import { assertNever, type CompiledScript } from '../dsl/index.js';
import { previewInput } from '../errors/index.js';
import { B, K1, bm25Idf, normInverseCache } from './bm25.js';
import { buildScorer, SegmentSearchContext } from './exec/build-scorer.js';
import { FeatureScorer } from './exec/feature-scorer.js';
import { PhraseScorer } from './exec/phrase-scorer.js';
import { TermScorer } from './exec/term-scorer.js';
import type { Exec, FeatureExec, PhraseExec, TermExec } from './plan/exec-nodes.js';
import type { StatsSource } from './plan/context.js';

export interface Explanation {
  readonly value: number;
  readonly description: string;
  readonly details: readonly Explanation[];
}

function node(value: number, description: string, details: readonly Explanation[] = []): Explanation {
  return { value, description, details };
}

/** ES Script.toString, the source quoted by its prefix. */
function describeScript(script: CompiledScript): string {
  return `Script{type=inline, lang='${script.lang}', idOrCode='${previewInput(script.source)}', options={}, params={}}`;
}

/** The explanation of `doc` (a live document of `segment`) for `exec`, or a 0-valued "no match" one. */
export function explainDoc(exec: Exec, segment: Segment, doc: number, stats: StatsSource): { matched: boolean; explanation: Explanation } {
  const ctx = new SegmentSearchContext(segment);
  try {
    const e = explainNode(exec, ctx, doc, stats);
    return e ? { matched: true, explanation: e } : { matched: false, explanation: node(0, `no matching term`) };
  } finally {
    ctx.release();
  }
}

/** The node's scorer positioned on `doc`, or null when the node does not match it. */
function scorerOn(exec: Exec, ctx: SegmentSearchContext, doc: number) {
  const s = buildScorer(exec, ctx);
  return s && s.advance(doc) === doc ? s : null;
}

function explainNode(exec: Exec, ctx: SegmentSearchContext, doc: number, stats: StatsSource): Explanation | null {
  const scorer = scorerOn(exec, ctx, doc);
  if (!scorer) return null;
  const value = scorer.score();
  switch (exec.kind) {
    case 'term':
      return termExplanation(exec, scorer as TermScorer, value, ctx.segment, doc, stats);
    case 'phrase':
      return phraseExplanation(exec, scorer as PhraseScorer, value, ctx.segment, doc, stats);
    case 'feature':
      return featureExplanation(exec, scorer as FeatureScorer, value);
    case 'bool': {
      const details: Explanation[] = [];
      for (const c of [...exec.must, ...exec.should]) {
        const e = explainNode(c, ctx, doc, stats);
        if (e) details.push(e);
      }
      for (const c of exec.filter) details.push(node(0, 'match on required clause, product of:', [node(0, '# clause'), node(1, describeQuery(c))]));
      return node(value, 'sum of:', details);
    }
    case 'dis_max': {
      const details = exec.clauses.map((c) => explainNode(c, ctx, doc, stats)).filter((e): e is Explanation => e !== null);
      if (details.length === 1) return details[0];
      return node(value, exec.tieBreaker === 0 ? 'max of:' : `max plus ${exec.tieBreaker} times others of:`, details);
    }
    case 'constant':
      return node(value, describeQuery(exec));
    case 'function_score': {
      const sub = explainNode(exec.query, ctx, doc, stats)!;
      return node(value, `function score, score mode [${exec.scoreMode}], boost mode [${exec.boostMode}]`, exec.boost !== 1 ? [sub, node(exec.boost, 'boost')] : [sub]);
    }
    case 'script_score': {
      // ScriptScoreQuery's explain: the script's (unboosted) value over the sub-query's explanation.
      const sub = explainNode(exec.query, ctx, doc, stats)!;
      const unboosted = exec.boost !== 0 ? Math.fround(value / exec.boost) : 0;
      const desc = `script score function, computed with script:"${describeScript(exec.script)}"`;
      const scored = node(unboosted, desc, exec.script.needsScore ? [node(sub.value, '_score: ', [sub])] : []);
      return exec.boost !== 1 ? node(value, 'Boosted score, product of:', [node(exec.boost, 'boost'), scored]) : scored;
    }
    case 'boosting': {
      const positive = explainNode(exec.positive, ctx, doc, stats)!;
      const details = [positive];
      if (scorerOn(exec.negative, ctx, doc)) details.push(node(exec.negativeBoost, `negative boost, as ${describeQuery(exec.negative)} matches`));
      if (exec.boost !== 1) details.push(node(exec.boost, 'boost'));
      return details.length === 1 ? positive : node(value, 'product of:', details);
    }
    case 'match_all':
      return node(value, '*:*');
    case 'match_none':
      return null;
    case 'terms': case 'term_range': case 'prefix': case 'pattern': case 'numeric_range': case 'exists': case 'ids': case 'slice':
    case 'script_filter':
      return node(value, describeQuery(exec));
    // ES KnnScoreDocQuery's explanation: the pre-phase's similarity times the boost, no details.
    case 'knn_score_doc':
      return node(value, 'within top k documents');
    case 'knn_exact':
      return node(value, `vector similarity (${exec.similarity}) on [${exec.field}]`);
    default:
      return assertNever(exec);
  }
}

function idfExplanation(field: string, term: string, stats: StatsSource): Explanation {
  const n = stats.docFreq(field, term);
  const N = stats.fieldStats(field).docCount;
  return node(bm25Idf(n, N), 'idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:', [
    node(n, 'n, number of documents containing term'),
    node(N, 'N, total number of documents with field'),
  ]);
}

/** BM25's tf part: freq / (freq + k1 · (1 − b + b · dl / avgdl)), with the field's norm when it has norms. */
function tfExplanation(freq: number, avgdl: number, norm: number | null): Explanation {
  if (norm === null) {
    const tf = Math.fround(freq / (freq + K1));
    return node(tf, 'tf, computed as freq / (freq + k1) from:', [node(freq, 'freq, occurrences of term within document'), node(K1, 'k1, term saturation parameter')]);
  }
  const inv = normInverseCache(avgdl)[norm];
  const tf = Math.fround(1 - 1 / (1 + freq * inv));
  return node(tf, 'tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:', [
    node(freq, 'freq, occurrences of term within document'),
    node(K1, 'k1, term saturation parameter'),
    node(B, 'b, length normalization parameter'),
    node(LENGTH_TABLE[norm], 'dl, length of field (approximate)'),
    node(avgdl, 'avgdl, average length of field'),
  ]);
}

function bm25Explanation(description: string, value: number, weight: number, idf: Explanation, freq: number, avgdl: number, norm: number | null): Explanation {
  const boost = idf.value === 0 ? 1 : Math.fround(weight / idf.value);
  const parts = [...(Math.abs(boost - 1) > 1e-6 ? [node(boost, 'boost')] : []), idf, tfExplanation(freq, avgdl, norm)];
  return node(value, `${description} [PerFieldSimilarity], result of:`, [node(value, `score(freq=${javaFloat(freq)}), computed as boost * idf * tf from:`, parts)]);
}

function fieldNorm(segment: Segment, field: string, doc: number): number | null {
  const norms = segment.fields.get(field)?.norms ?? null;
  return norms === null ? null : norms[doc];
}

function termExplanation(exec: TermExec, scorer: TermScorer, value: number, segment: Segment, doc: number, stats: StatsSource): Explanation {
  return bm25Explanation(`weight(${exec.field}:${exec.term} in ${doc})`, value, exec.weight, idfExplanation(exec.field, exec.term, stats), scorer.freq(), exec.avgdl, fieldNorm(segment, exec.field, doc));
}

function phraseExplanation(exec: PhraseExec, scorer: PhraseScorer, value: number, segment: Segment, doc: number, stats: StatsSource): Explanation {
  const idfs = exec.terms.map((t) => idfExplanation(exec.field, t, stats));
  let sum = 0;
  for (const e of idfs) sum += e.value;
  const idf = node(Math.fround(sum), 'idf, sum of:', idfs);
  return bm25Explanation(`weight(${describeQuery(exec)} in ${doc})`, value, exec.weight, idf, scorer.freq(), exec.avgdl, fieldNorm(segment, exec.field, doc));
}

function featureExplanation(exec: FeatureExec, scorer: FeatureScorer, value: number): Explanation {
  const s = decodeFeatureWeight(scorer.freq());
  const on = `on the ${exec.field} field for the ${exec.feature} feature`;
  const w = node(exec.weight, 'w, weight of this function');
  const S = node(s, 'S, feature value');
  const fn = exec.fn;
  if (!fn) return node(value, `Linear function ${on}, computed as w * S from:`, [w, S]);
  switch (fn.kind) {
    case 'saturation': return node(value, `Saturation function ${on}, computed as w * S / (S + k) from:`, [w, node(fn.pivot, 'k, pivot feature value that would give a score contribution equal to w/2'), S]);
    case 'log': return node(value, `Log function ${on}, computed as w * log(a + S) from:`, [w, node(fn.scalingFactor, 'a, scaling factor'), S]);
    case 'sigmoid': return node(value, `Sigmoid function ${on}, computed as w * S^a / (S^a + k^a) from:`, [w, node(fn.pivot, 'k, pivot feature value that would give a score contribution equal to w/2'), node(fn.exponent, 'a, exponent, higher values make the function grow slower before k and faster after k'), S]);
  }
}

/** Java's Float.toString for the small non-negative values shown here (1 → "1.0"). */
function javaFloat(v: number): string {
  return Number.isInteger(v) ? `${v}.0` : String(v);
}

/** A query as Lucene's `toString()` prints it (BooleanQuery's +/#/- prefixes, phrases in quotes). */
export function describeQuery(exec: Exec): string {
  switch (exec.kind) {
    case 'term': return `${exec.field}:${exec.term}`;
    case 'phrase': {
      const terms = exec.prefixExpansions ? [...exec.terms.slice(0, -1), `(${exec.prefixExpansions.join(' ')})`] : exec.terms;
      return `${exec.field}:"${terms.join(' ')}"${exec.slop > 0 ? `~${exec.slop}` : ''}`;
    }
    case 'feature': return `FeatureQuery(field=${exec.field}, feature=${exec.feature}, function=${exec.fn ? exec.fn.kind : 'linear'})`;
    case 'bool': {
      const parts = [
        ...exec.must.map((c) => `+${wrap(c)}`), ...exec.filter.map((c) => `#${wrap(c)}`),
        ...exec.should.map((c) => wrap(c)), ...exec.mustNot.map((c) => `-${wrap(c)}`),
      ];
      return parts.join(' ') + (exec.minimumShouldMatch > 0 && exec.should.length > 0 ? `~${exec.minimumShouldMatch}` : '');
    }
    case 'dis_max': return `(${exec.clauses.map(describeQuery).join(' | ')})${exec.tieBreaker !== 0 ? `~${exec.tieBreaker}` : ''}`;
    case 'constant': return `ConstantScore(${describeQuery(exec.filter)})${exec.score !== 1 ? `^${exec.score}` : ''}`;
    case 'function_score': return `function score (${describeQuery(exec.query)}, functions: [${exec.functions.map((f) => (f.fn.kind === 'decay' ? f.fn.type : f.fn.kind)).join(', ')}])`;
    case 'script_filter': return `ScriptQuery(${describeScript(exec.script)})`;
    case 'script_score': return `script_score (${describeQuery(exec.query)}, script: {${describeScript(exec.script)}}`;
    case 'boosting': return `FunctionScoreQuery(${describeQuery(exec.positive)}, scored by boost(queryboost(${describeQuery(exec.negative)})^=${exec.negativeBoost}))${exec.boost !== 1 ? `^${exec.boost}` : ''}`;
    case 'match_all': return '*:*';
    case 'match_none': return 'MatchNoDocsQuery("")';
    case 'terms': return `${exec.field}:(${exec.terms.join(' ')})`;
    case 'term_range': return `${exec.field}:${exec.includeLower ? '[' : '{'}${exec.lower ?? '*'} TO ${exec.upper ?? '*'}${exec.includeUpper ? ']' : '}'}`;
    case 'prefix': return `${exec.field}:${exec.prefix}*`;
    case 'pattern': return `AutomatonQuery {field=${exec.field}}`;
    case 'numeric_range': return `${exec.field}:[${exec.lower} TO ${exec.upper}]`;
    case 'exists': return `FieldExistsQuery [field=${exec.fields.join(',')}]`;
    case 'ids': return `_id:(${exec.ids.join(' ')})`;
    case 'slice': return `slice(${exec.field ?? (exec.by === 'id' ? '_id' : '_doc')}, id: ${exec.id}, max: ${exec.max})`;
    case 'knn_exact': return `KnnFloatVectorQuery:${exec.field}`;
    case 'knn_score_doc': return `KnnScoreDocQuery[${exec.field}]`;
    default: return assertNever(exec);
  }
}

function wrap(exec: Exec): string {
  const s = describeQuery(exec);
  return exec.kind === 'bool' ? `(${s})` : s;
}
