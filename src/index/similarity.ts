/**
 * Similarity settings (ES SimilarityService): `index.similarity.<name>` of type `BM25` (`k1`, `b`,
 * `discount_overlaps`) or `boolean`, chosen per field by `similarity`; the built-ins `BM25` and
 * `boolean` are always there, and a similarity named `default` replaces BM25 for fields without one.
 */
import { IllegalArgumentError } from '../errors/index.js';

export type Similarity =
  | { readonly type: 'BM25'; readonly k1: number; readonly b: number; readonly discountOverlaps: boolean }
  | { readonly type: 'boolean' };

/** `index.similarity` as a nested object: { name: { type, k1, b, discount_overlaps } }. */
export type SimilaritySettings = Readonly<Record<string, unknown>>;

/** Lucene BM25Similarity's defaults (k1 = 1.2, b = 0.75, overlaps discounted), in float32. */
export const DEFAULT_SIMILARITY = { type: 'BM25', k1: Math.fround(1.2), b: Math.fround(0.75), discountOverlaps: true } as const satisfies Similarity;
const BOOLEAN: Similarity = { type: 'boolean' };

const BUILT_IN = new Map<string, Similarity>([['BM25', DEFAULT_SIMILARITY], ['boolean', BOOLEAN]]);
const UNSUPPORTED = new Set(['DFR', 'IB', 'LMDirichlet', 'LMJelinekMercer', 'DFI', 'scripted', 'classic']);
const BM25_SETTINGS = new Set(['type', 'k1', 'b', 'discount_overlaps']);

export type SimilarityLookup = (name: string) => Similarity | undefined;

/** A float as Java prints it in Lucene's messages (2 → "2.0"). */
const javaFloat = (n: number): string => (Number.isInteger(n) ? n.toFixed(1) : String(n));

function float(v: unknown, key: string): number {
  const n = Number(v);
  if (typeof v === 'boolean' || String(v).trim() === '' || !Number.isFinite(n)) {
    throw new IllegalArgumentError(`Failed to parse value [${String(v).slice(0, 100)}] for setting [${key}]`);
  }
  return Math.fround(n);
}

function parseOne(name: string, def: unknown): Similarity {
  if (typeof def !== 'object' || def === null || Array.isArray(def)) throw new IllegalArgumentError(`Similarity [${name}] must have an associated type`);
  const s = def as Record<string, unknown>;
  if (s.type === undefined || s.type === null) throw new IllegalArgumentError(`Similarity [${name}] must have an associated type`);
  const type = String(s.type);
  const prefix = `index.similarity.${name}`;
  if (type === 'BM25') {
    const unknown = Object.keys(s).filter((k) => !BM25_SETTINGS.has(k));
    if (unknown.length > 0) throw new IllegalArgumentError(`Unknown settings for similarity of type [BM25]: [${unknown.join(', ')}]`);
    const k1 = s.k1 === undefined ? DEFAULT_SIMILARITY.k1 : float(s.k1, `${prefix}.k1`);
    const b = s.b === undefined ? DEFAULT_SIMILARITY.b : float(s.b, `${prefix}.b`);
    // Lucene BM25Similarity's constructor checks.
    if (k1 < 0) throw new IllegalArgumentError(`illegal k1 value: ${javaFloat(k1)}, must be a non-negative finite value`);
    if (b < 0 || b > 1) throw new IllegalArgumentError(`illegal b value: ${javaFloat(b)}, must be between 0 and 1`);
    const overlaps = s.discount_overlaps === undefined ? 'true' : String(s.discount_overlaps);
    if (overlaps !== 'true' && overlaps !== 'false') throw new IllegalArgumentError(`Failed to parse value [${overlaps.slice(0, 100)}] as only [true] or [false] are allowed.`);
    return { type: 'BM25', k1, b, discountOverlaps: overlaps === 'true' };
  }
  if (type === 'boolean') {
    const unknown = Object.keys(s).filter((k) => k !== 'type');
    if (unknown.length > 0) throw new IllegalArgumentError(`Unknown settings for similarity of type [boolean]: [${unknown.join(', ')}]`);
    return BOOLEAN;
  }
  if (UNSUPPORTED.has(type)) throw new IllegalArgumentError(`similarity type [${type}] is not supported by this server yet`);
  throw new IllegalArgumentError(`Unknown Similarity type [${type.slice(0, 100)}] for [${name}]`);
}

/** Parses and validates the similarity settings; returns a lookup by name (built-ins included). */
export function parseSimilarities(settings: SimilaritySettings): SimilarityLookup {
  const own = new Map<string, Similarity>();
  for (const [name, def] of Object.entries(settings)) {
    if (BUILT_IN.has(name)) throw new IllegalArgumentError(`Cannot redefine built-in Similarity [${name}]`);
    own.set(name, parseOne(name, def));
  }
  return (name) => own.get(name) ?? BUILT_IN.get(name) ?? (name === 'default' ? DEFAULT_SIMILARITY : undefined);
}
