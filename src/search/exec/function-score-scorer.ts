/**
 * ES's FunctionScoreQuery scorer: for each document of the sub-query, the functions whose filter
 * matches it give factors (each times its `weight`), combined by `score_mode` (1 when none
 * applies), capped at `max_boost`, then combined with the sub-query's score by `boost_mode` (in
 * float, as ES casts it); documents under `min_score` are skipped; the query's `boost` multiplies
 * last (per-doc-score-scorer.ts: deleted and min_score docs skipped, no bound ahead).
 */
import { javaDouble } from '../../common/java-double.js';
import { mix32 } from '../../common/java-hash.js';
import { IllegalArgumentError } from '../../errors/index.js';
import type { LiveDocs, Segment, SegmentField } from '../../index/index.js';
import type { FunctionExec, FunctionScoreExec } from '../plan/exec-nodes.js';
import { firstValueText, hashToScore, murmurOfText } from '../script/random-score.js';
import { scriptProgram } from '../script/script-program.js';
import { PerDocScoreScorer } from './per-doc-score-scorer.js';
import { matchesDoc, type Scorer } from './scorer.js';

/** One function over one segment: whether it applies to a doc, and its weighted value there. */
interface SegmentFunction {
  readonly filter: Scorer | null;
  /** The filter matched no doc of the segment: the function never applies here. */
  readonly never: boolean;
  readonly weight: number;
  /** The weighted value for `doc`, whose sub-query score is `score`. */
  value(doc: number, score: number): number;
}

const MODIFIERS: Record<string, (v: number) => number> = {
  none: (v) => v, log: Math.log10, log1p: (v) => Math.log10(v + 1), log2p: (v) => Math.log10(v + 2), ln: Math.log, ln1p: Math.log1p,
  ln2p: (v) => Math.log1p(1 + v), square: (v) => v * v, sqrt: Math.sqrt, reciprocal: (v) => 1 / v,
};

export function segmentFunction(fn: FunctionExec, segment: Segment): (doc: number, score: number) => number {
  if (fn.kind === 'weight') return () => 1;
  if (fn.kind === 'script_score') {
    // ES ScriptScoreFunction: the script's double, refused when negative (NaN passes, as in ES).
    const script = scriptProgram(fn.script).bind(segment);
    return (doc, score) => {
      const result = script(doc, score) as number;
      if (result < 0) throw new IllegalArgumentError(`script score function must not produce negative scores, but got: [${javaDouble(result)}]`);
      return result;
    };
  }
  if (fn.kind === 'random_score') return randomScoreFunction(fn, segment);
  const values: SegmentField | undefined = segment.fields.get(fn.field);
  const offsets = values?.docValueOffsets ?? null;
  const numbers = values?.docValueNumbers ?? null;
  if (fn.kind === 'field_value_factor') {
    const modifier = MODIFIERS[fn.modifier];
    return (doc) => {
      let value: number;
      if (offsets !== null && numbers !== null && offsets[doc] < offsets[doc + 1]) value = numbers[offsets[doc]];
      else if (fn.missing !== null) value = fn.missing;
      else throw new IllegalArgumentError(`Missing value for field [${fn.field}]`);
      const result = modifier(fn.factor * value);
      if (!(result >= 0)) throw new IllegalArgumentError(`field value function must not produce negative scores, but got: [${result}] for field value: [${value}]`);
      return result;
    };
  }
  const { origin, offset } = fn;
  // ES's DecayFunction scales, processed once.
  const decay = fn.type === 'gauss'
    ? ((s) => (d: number) => Math.exp((0.5 * d * d) / s))((0.5 * fn.scale * fn.scale) / Math.log(fn.decay))
    : fn.type === 'exp'
      ? ((s) => (d: number) => Math.exp(s * d))(Math.log(fn.decay) / fn.scale)
      : ((s) => (d: number) => Math.max(0, (s - d) / s))(fn.scale / (1 - fn.decay));
  return (doc) => {
    if (offsets === null || numbers === null || offsets[doc] === offsets[doc + 1]) return 1;
    let out = fn.multiValueMode === 'min' ? Infinity : fn.multiValueMode === 'max' ? -Infinity : 0;
    const start = offsets[doc];
    const end = offsets[doc + 1];
    for (let j = start; j < end; j++) {
      const distance = Math.max(0, Math.abs(numbers[j] - origin) - offset);
      if (fn.multiValueMode === 'min') out = Math.min(out, distance);
      else if (fn.multiValueMode === 'max') out = Math.max(out, distance);
      else out += distance;
    }
    return decay(fn.multiValueMode === 'avg' ? out / (end - start) : out);
  };
}

/**
 * ES RandomScoreFunction: murmur3 of the field's first value as text, the salted seed itself for a
 * document without one; without a seed, BitMixer.mix of the document (its index-wide write order
 * here, where ES mixes the shard-local Lucene doc id).
 */
function randomScoreFunction(fn: Extract<FunctionExec, { kind: 'random_score' }>, segment: Segment): (doc: number) => number {
  const seed = fn.saltedSeed;
  if (fn.field === null || fn.vt === null) return (doc) => hashToScore(mix32(segment.indexOrder.get(doc) ^ seed));
  // `_seq_no`'s text: the index-wide write order's, which does not depend on sharding as a shard's seq_no does.
  if (fn.field === '_seq_no') return (doc) => hashToScore(murmurOfText(String(segment.indexOrder.get(doc)), seed));
  const field = segment.fields.get(fn.field);
  const vt = fn.vt;
  return (doc) => {
    const text = firstValueText(segment, field, vt, doc);
    return hashToScore(text === null ? seed : murmurOfText(text, seed));
  };
}

export function segmentFunctions(exec: FunctionScoreExec, segment: Segment, build: (e: FunctionScoreExec['query']) => Scorer | null): SegmentFunction[] {
  return exec.functions.map((f) => {
    const filter = f.filter === null ? null : build(f.filter);
    const fn = segmentFunction(f.fn, segment);
    const weight = f.weight;
    return { filter, never: f.filter !== null && filter === null, weight, value: (doc: number, score: number) => fn(doc, score) * weight };
  });
}

/** Whether `f` applies to `doc` (its filter scorer is moved there; docs come in increasing order). */
function applies(f: SegmentFunction, doc: number): boolean {
  if (f.never) return false;
  const filter = f.filter;
  return filter === null || matchesDoc(filter, doc);
}

/** ES FunctionScoreQuery's factor for `doc`: the applying functions combined by `mode`, 1 when none applies. */
export function combineFunctions(functions: readonly SegmentFunction[], mode: FunctionScoreExec['scoreMode'], doc: number, score: number): number {
  if (mode === 'first') {
    for (const f of functions) if (applies(f, doc)) return f.value(doc, score);
    return 1;
  }
  if (mode === 'multiply') {
    let factor = 1;
    for (const f of functions) if (applies(f, doc)) factor *= f.value(doc, score);
    return factor;
  }
  let count = 0;
  let weightSum = 0;
  let total = mode === 'max' ? -Infinity : mode === 'min' ? Infinity : 0;
  for (const f of functions) {
    if (!applies(f, doc)) continue;
    const v = f.value(doc, score);
    count++;
    weightSum += f.weight;
    if (mode === 'max') total = Math.max(total, v);
    else if (mode === 'min') total = Math.min(total, v);
    else total += v;
  }
  if (count === 0) return 1;
  return mode === 'avg' ? total / weightSum : total;
}

export function combineBoost(mode: FunctionScoreExec['boostMode'], score: number, factor: number): number {
  switch (mode) {
    case 'multiply': return score * factor;
    case 'replace': return factor;
    case 'sum': return score + factor;
    case 'avg': return (score + factor) / 2;
    case 'max': return Math.max(score, factor);
    case 'min': return Math.min(score, factor);
  }
}

export class FunctionScoreScorer extends PerDocScoreScorer {
  constructor(sub: Scorer, private readonly functions: readonly SegmentFunction[], private readonly exec: FunctionScoreExec, live: LiveDocs = null) {
    super(sub, live);
  }

  /** The score of the sub-scorer's doc `d` (or NaN under min_score). */
  protected scoreOf(d: number): number {
    const subScore = this.sub.score();
    const factor = Math.min(combineFunctions(this.functions, this.exec.scoreMode, d, subScore), this.exec.maxBoost);
    const score = Math.fround(combineBoost(this.exec.boostMode, subScore, factor));
    return this.exec.minScore !== null && score < this.exec.minScore ? NaN : Math.fround(score * this.exec.boost);
  }
}
