/**
 * Exec → Scorer for one segment (Lucene Weight.scorer + Boolean2ScorerSupplier). Returns null when
 * the clause cannot match anything in the segment, so compound scorers can short-circuit.
 */
import { hasPostings, termOrd, type LiveDocs, type Segment, type SegmentField } from '../../index/index.js';
import { assertNever } from '../../dsl/index.js';
import { normInverseCache } from '../bm25.js';
import type { Exec, FeatureExec, PhraseExec, TermExec } from '../plan/exec-nodes.js';
import { FeatureScorer } from './feature-scorer.js';
import { BitSetScorer, buildDocSet } from './doc-set.js';
import { FunctionScoreScorer, segmentFunctions } from './function-score-scorer.js';
import { ScriptScoreScorer } from './script-score-scorer.js';
import { ScriptFilterScorer } from './script-filter-scorer.js';
import { scriptProgram } from '../script/script-program.js';
import {
  BoostingScorer, ConjunctionScorer, ConstantScorer, DisMaxScorer, DisjunctionSumScorer, MatchAllScorer, ReqExclScorer, ReqOptScorer,
} from './compound-scorers.js';
import { PhraseScorer, type PhraseSlot } from './phrase-scorer.js';
import type { Scorer } from './scorer.js';
import type { SearchDeadline } from './deadline.js';
import { TermScorer, newBlockBuffers, type BlockBuffers } from './term-scorer.js';
import { knnExactScorer, knnScoreDocScorer } from './knn-scorers.js';

/** Reused freq-1 score tables (TermScorer.tf1): allocating 2 KB per term per query showed up in profiles. */
const tf1Pool: Float64Array[] = [];
/** Reused decoded-block buffers (TermScorer.docs / freqs), for the same reason. */
const blockPool: BlockBuffers[] = [];

export class SegmentSearchContext {
  private readonly caches = new Map<number | string, Float64Array>();
  private readonly tables: Float64Array[] = [];
  private readonly blocks: BlockBuffers[] = [];
  /**
   * `deadline`: the search's, polled while patterns expand to terms (null: none, e.g. highlighting).
   * `live`: the segment's live docs where the caller has them: scripts skip deleted docs (Lucene
   * checks acceptDocs before a two-phase match or a score), so a deleted version without a field
   * cannot fail a script its live version satisfies.
   */
  constructor(readonly segment: Segment, readonly deadline: SearchDeadline | null = null, readonly live: LiveDocs = null) {}

  tf1Table(): Float64Array {
    const t = tf1Pool.pop() ?? new Float64Array(256);
    t.fill(NaN);
    this.tables.push(t);
    return t;
  }

  blockBuffers(): BlockBuffers {
    const b = blockPool.pop() ?? newBlockBuffers();
    this.blocks.push(b);
    return b;
  }

  /** Returns pooled tables and buffers; the scorers built by this context must not be used afterwards. */
  release(): void {
    for (const t of this.tables) tf1Pool.push(t);
    this.tables.length = 0;
    for (const b of this.blocks) blockPool.push(b);
    this.blocks.length = 0;
  }

  /** BM25 norm tables are per field avgdl (and k1, b); one per distinct one per task. */
  normCache(avgdl: number, k1?: number, b?: number): Float64Array {
    const key = k1 === undefined ? avgdl : `${avgdl}|${k1}|${b}`;
    let c = this.caches.get(key);
    if (!c) this.caches.set(key, (c = normInverseCache(avgdl, k1, b)));
    return c;
  }

  featureScorer(exec: FeatureExec): FeatureScorer | null {
    const field = this.segment.fields.get(exec.field);
    if (!field || !hasPostings(field) || !field.info.hasFreqs) return null;
    const ord = termOrd(field, exec.feature);
    return ord < 0 ? null : new FeatureScorer(field, ord, exec.weight, exec.fn ?? null, this.blockBuffers());
  }

  termScorer(exec: TermExec): TermScorer | null {
    const field = this.segment.fields.get(exec.field);
    if (!field || !hasPostings(field)) return null;
    const ord = termOrd(field, exec.term);
    if (ord < 0) return null;
    return new TermScorer(field, ord, exec.weight, this.normCache(exec.avgdl, exec.k1, exec.b), this.tf1Table(), this.blockBuffers());
  }
}

function phraseScorer(exec: PhraseExec, ctx: SegmentSearchContext): Scorer | null {
  const field = ctx.segment.fields.get(exec.field);
  if (!field || !hasPostings(field)) return null;
  if (!field.positions) throw new Error(`field:[${exec.field}] was indexed without position data; cannot run PhraseQuery`);
  const cache = ctx.normCache(exec.avgdl, exec.k1, exec.b);
  const slots: PhraseSlot[] = [];
  const fixed = exec.prefixExpansions ? exec.terms.length - 1 : exec.terms.length;
  const scorerFor = (f: SegmentField, term: string) => {
    const ord = termOrd(f, term);
    return ord < 0 ? null : new TermScorer(f, ord, 0, cache, ctx.tf1Table(), ctx.blockBuffers());
  };
  for (let i = 0; i < fixed; i++) {
    const s = scorerFor(field, exec.terms[i]);
    if (!s) return null;
    slots.push({ alternatives: [s], offset: exec.positions[i] });
  }
  if (exec.prefixExpansions) {
    const prefixField = exec.prefixField === null ? field : ctx.segment.fields.get(exec.prefixField);
    if (!prefixField || !hasPostings(prefixField)) return null;
    const alternatives = exec.prefixExpansions.map((t) => scorerFor(prefixField, t)).filter((s): s is TermScorer => s !== null);
    if (alternatives.length === 0) return null;
    slots.push({ alternatives, offset: exec.positions[exec.positions.length - 1] });
  }
  return new PhraseScorer(slots, exec.slop, exec.weight, cache, field.norms);
}

export function buildScorer(exec: Exec, ctx: SegmentSearchContext): Scorer | null {
  switch (exec.kind) {
    case 'term':
      return ctx.termScorer(exec);
    case 'feature':
      return ctx.featureScorer(exec);
    case 'phrase':
      return phraseScorer(exec, ctx);
    case 'match_all':
      return ctx.segment.maxDoc > 0 ? new MatchAllScorer(ctx.segment.maxDoc, exec.score) : null;
    case 'match_none':
      return null;
    case 'constant': {
      const inner = buildScorer(exec.filter, ctx);
      return inner ? new ConstantScorer(inner, exec.score) : null;
    }
    case 'function_score': {
      const sub = buildScorer(exec.query, ctx);
      return sub ? new FunctionScoreScorer(sub, segmentFunctions(exec, ctx.segment, (e) => buildScorer(e, ctx)), exec, ctx.live) : null;
    }
    case 'script_filter':
      return new ScriptFilterScorer(ctx.segment.maxDoc, scriptProgram(exec.script).bind(ctx.segment), ctx.live, exec.score);
    case 'script_score': {
      const sub = buildScorer(exec.query, ctx);
      return sub ? new ScriptScoreScorer(sub, scriptProgram(exec.script).bind(ctx.segment), exec, ctx.live) : null;
    }
    case 'boosting': {
      const positive = buildScorer(exec.positive, ctx);
      return positive ? new BoostingScorer(positive, buildScorer(exec.negative, ctx), exec.negativeBoost, exec.boost) : null;
    }
    case 'dis_max': {
      const clauses = exec.clauses.map((c) => buildScorer(c, ctx)).filter((s): s is Scorer => s !== null);
      if (clauses.length === 0) return null;
      return clauses.length === 1 ? clauses[0] : new DisMaxScorer(clauses, exec.tieBreaker);
    }
    case 'bool':
      return boolScorer(exec, ctx);
    case 'knn_exact':
      return knnExactScorer(ctx.segment, exec, () => (exec.filter === null ? null : buildScorer(exec.filter, ctx)));
    case 'knn_score_doc':
      return knnScoreDocScorer(ctx.segment, exec);
    case 'terms':
    case 'term_range':
    case 'prefix':
    case 'pattern':
    case 'numeric_range':
    case 'exists':
    case 'ids':
    case 'slice': {
      const bits = buildDocSet(exec, ctx.segment, ctx.deadline);
      if (!bits) return null;
      const scorer = new BitSetScorer(bits, exec.score);
      return scorer.cost() > 0 ? scorer : null;
    }
    default:
      return assertNever(exec);
  }
}

function boolScorer(exec: Extract<Exec, { kind: 'bool' }>, ctx: SegmentSearchContext): Scorer | null {
  const must: Scorer[] = [];
  for (const c of exec.must) {
    const s = buildScorer(c, ctx);
    if (!s) return null;
    must.push(s);
  }
  const filters: Scorer[] = [];
  for (const c of exec.filter) {
    const s = buildScorer(c, ctx);
    if (!s) return null;
    filters.push(s);
  }
  const should = exec.should.map((c) => buildScorer(c, ctx)).filter((s): s is Scorer => s !== null);
  const msm = exec.minimumShouldMatch;
  if (msm > should.length) return null;
  const hasRequired = must.length > 0 || filters.length > 0;
  let optional: Scorer | null = null;
  if (msm > 0 || !hasRequired) {
    if (should.length > 0) {
      const disjunction = should.length === 1 ? should[0] : new DisjunctionSumScorer(should, Math.max(1, msm));
      must.push(disjunction);
    } else if (!hasRequired) {
      return null;
    }
  } else if (should.length > 0) {
    optional = should.length === 1 ? should[0] : new DisjunctionSumScorer(should, 1);
  }
  let scorer: Scorer;
  if (must.length === 1 && filters.length === 0) scorer = must[0];
  else if (must.length === 0 && filters.length === 1) scorer = new ConstantScorer(filters[0], 0);
  else scorer = new ConjunctionScorer(must, filters);
  if (optional) scorer = new ReqOptScorer(scorer, optional);
  const excluded = exec.mustNot.map((c) => buildScorer(c, ctx)).filter((s): s is Scorer => s !== null);
  if (excluded.length > 0) {
    scorer = new ReqExclScorer(scorer, excluded.length === 1 ? excluded[0] : new DisjunctionSumScorer(excluded, 1));
  }
  return scorer;
}
