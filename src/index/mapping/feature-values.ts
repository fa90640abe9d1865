/**
 * One object of a `sparse_vector` / `rank_features` field → its (feature, weight) pairs, validated
 * as ES's SparseVectorFieldMapper / RankFeaturesFieldMapper and Lucene's FeatureField do: the value
 * must be an object of feature → positive normal float (numbers or numeric strings; null entries
 * are skipped), a feature may appear once per document (arrays of objects included), and
 * rank_features names may not contain dots (sparse_vector ones may, since 8.16). Errors are thrown
 * bare; the document parser wraps them as ES does ("failed to parse: …").
 */
import { IllegalArgumentError, NumberFormatError } from '../../errors/index.js';
import { javaFloatToString } from '../../common/float-json.js';
import type { RawJson } from '../../common/raw-json.js';
import { isStorableFeatureWeight } from '../segment/feature-weights.js';
import { forgetFeatureText, scanFeatureText, scannedFeatures } from './feature-text.js';
import type { ResolvedField } from './types.js';

/** One feature of one document, as the document parser hands it to indexing. */
export interface FeatureValue {
  readonly feature: string;
  /** float32, after `positive_score_impact: false` inverted it. */
  readonly weight: number;
}

/**
 * One feature of a raw object (`RawJson`), its name text[start, end): what `emitFeatureText` hands
 * the sink instead of a FeatureValue. One instance is reused for every feature: a sink reads it
 * and keeps nothing of it.
 */
export class FeatureRef {
  text = '';
  start = 0;
  end = 0;
  /** float32, after `positive_score_impact: false` inverted it. */
  weight = 0;
}

const featureRef = new FeatureRef();

/**
 * The features of an object kept as its text (the document parser's fast path): when it is the
 * plain form feature-text.ts reads and every entry is valid, each goes to `emit` (when given) and
 * the answer is true. Otherwise nothing is emitted and the answer is false: the caller parses the
 * object and takes `parseFeatureObject`, which reads every other form and throws the errors.
 */
export function emitFeatureText(field: ResolvedField, raw: RawJson, emit: ((field: ResolvedField, ref: FeatureRef) => void) | null): boolean {
  const text = raw.text;
  const end = scanFeatureText(text, raw.start);
  forgetFeatureText();
  if (end !== raw.end) return false;
  const { count, nameStart, nameEnd, weights } = scannedFeatures();
  const inverse = !field.positiveScoreImpact;
  const noDots = field.type === 'rank_features';
  for (let k = 0; k < count; k++) {
    if (!isStorableFeatureWeight(inverse ? Math.fround(1 / weights[k]) : weights[k])) return false;
    if (noDots) {
      for (let i = nameStart[k]; i < nameEnd[k]; i++) if (text.charCodeAt(i) === 0x2e) return false;
    }
  }
  if (emit === null) return true;
  const ref = featureRef;
  ref.text = text;
  for (let k = 0; k < count; k++) {
    ref.start = nameStart[k];
    ref.end = nameEnd[k];
    ref.weight = inverse ? Math.fround(1 / weights[k]) : weights[k];
    emit(field, ref);
  }
  ref.text = '';
  return true;
}

/** Jackson's name of the token a JSON value starts with (what ES messages print). */
export function jsonTokenName(value: unknown): string {
  if (value === null) return 'VALUE_NULL';
  if (Array.isArray(value)) return 'START_ARRAY';
  switch (typeof value) {
    case 'object': return 'START_OBJECT';
    case 'number': return 'VALUE_NUMBER';
    case 'string': return 'VALUE_STRING';
    case 'boolean': return 'VALUE_BOOLEAN';
    default: return 'VALUE_EMBEDDED_OBJECT';
  }
}

/** Java `Float.parseFloat` of a JSON string value (ES parses numeric strings with coercion). */
function parseFloatString(text: string): number {
  const t = text.trim();
  if (t === '') throw new NumberFormatError(null);
  if (/^[+-]?(NaN|Infinity)$/.test(t)) return Number(t);
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?$/.test(t)) throw new NumberFormatError(text);
  return Number(t.replace(/[fFdD]$/, ''));
}

/**
 * Validates `value` (one JSON value given for the field) and passes each feature to `emit`.
 * `seen` holds the features already indexed for this field in this document, or is null when this
 * is the field's first object in the document: one parsed JSON object cannot repeat a key, so only
 * a later object of an array can collide (the caller builds the set then, see `featuresSeenIn`).
 * Per feature this allocates nothing on the success path: a sparse vector has ~100 of them.
 */
export function parseFeatureObject(
  field: ResolvedField, value: unknown, seen: Set<string> | null, emit: (feature: string, weight: number) => void,
): void {
  const type = field.type;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new IllegalArgumentError(`[${type}] fields must be json objects, expected a START_OBJECT but got: ${jsonTokenName(value)}`);
  }
  const obj = value as Record<string, unknown>;
  const features = Object.keys(obj);
  for (let i = 0; i < features.length; i++) {
    const feature = features[i];
    const raw = obj[feature];
    if (type === 'rank_features' && feature.includes('.')) {
      throw new IllegalArgumentError(`[rank_features] fields do not support dots in feature names but found [${feature}]`);
    }
    if (raw === null) continue; // ES: "ignore feature, this is consistent with numeric fields"
    let weight: number;
    if (typeof raw === 'number') weight = Math.fround(raw);
    else if (typeof raw === 'string') weight = Math.fround(parseFloatString(raw));
    else {
      throw new IllegalArgumentError(
        `[${type}] fields take hashes that map a feature to a strictly positive float, but got unexpected token ${jsonTokenName(raw)}`,
      );
    }
    if (seen !== null) {
      if (seen.has(feature)) {
        const key = `${field.path}.${feature}`;
        throw new IllegalArgumentError(type === 'rank_features'
          ? `[rank_features] fields do not support indexing multiple values for the same rank feature [${key}] in the same document`
          : `[sparse_vector] fields do not support indexing multiple values for the same feature [${key}] in the same document`);
      }
      seen.add(feature);
    }
    if (!field.positiveScoreImpact) weight = Math.fround(1 / weight);
    // Lucene FeatureField#setFeatureValue.
    if (!Number.isFinite(weight)) {
      throw new IllegalArgumentError(`featureValue must be finite, got: ${javaFloatToString(weight)} for feature ${feature} on field ${field.path}`);
    }
    if (!isStorableFeatureWeight(weight)) {
      throw new IllegalArgumentError(
        `featureValue must be a positive normal float, got: ${javaFloatToString(weight)} for feature ${feature} on field ${field.path} which is less than the minimum positive normal float: 1.1754944E-38`,
      );
    }
    emit(feature, weight);
  }
}

/** The features an already-indexed object of the field gave (its non-null entries): what a later object may not repeat. */
export function featuresSeenIn(value: Record<string, unknown>): Set<string> {
  const seen = new Set<string>();
  for (const feature of Object.keys(value)) if (value[feature] !== null) seen.add(feature);
  return seen;
}
