/**
 * The binary layout of the `.sparse_model_2` artifact (`models/sparse_model_2/model.bin`), written
 * by `tools/model-build/build-model.mjs` and read at start-up. Little-endian; every section starts
 * on a 4-byte boundary so the typed arrays view the file's bytes without copying.
 *
 *   header       uint32 × 6: MAGIC, VERSION, V (vocabulary size), N (expansion candidates),
 *                K (neighbours per candidate), D (context vector dimensions)
 *   prior        float32[V]   IDF-like weight of each token; 0 = never output (stop words, specials)
 *   canonical    uint16[V]    token → the token its inflections share (itself when none)
 *   candidates   uint16[N]    token id of each expansion candidate
 *   neighbours   uint16[N·K]  candidate index of each neighbour, NO_NEIGHBOUR past the last
 *   scores       uint8[N·K]   neighbour strength σ, stored as round(SCORE_SCALE·σ)
 *   vectors      int8[N·D]    unit context vectors, stored as round(VECTOR_SCALE·v)
 */
export const MAGIC = 0x4d535354; // "TSSM"
export const VERSION = 1;
export const NO_NEIGHBOUR = 0xffff;
export const SCORE_SCALE = 200;
/** 2.5× headroom over 127 keeps 100-d unit vectors' components (|v| ≲ 0.4) precise. */
export const VECTOR_SCALE = 127 * 2.5;
const HEADER_WORDS = 6;

export interface ModelArtifact {
  readonly prior: Float32Array;
  readonly canonical: Uint16Array;
  readonly candidates: Uint16Array;
  /** Neighbours per candidate (K). */
  readonly neighbourCount: number;
  readonly neighbours: Uint16Array;
  readonly scores: Uint8Array;
  /** Context vector dimensions (D). */
  readonly dimensions: number;
  readonly vectors: Int8Array;
}

const align4 = (n: number): number => (n + 3) & ~3;

function sectionSizes(v: number, n: number, k: number, d: number): number[] {
  return [HEADER_WORDS * 4, v * 4, v * 2, n * 2, n * k * 2, n * k, n * d].map(align4);
}

export function writeArtifact(a: ModelArtifact): Uint8Array {
  const v = a.prior.length;
  const n = a.candidates.length;
  const k = a.neighbourCount;
  const d = a.dimensions;
  if (a.canonical.length !== v || a.neighbours.length !== n * k || a.scores.length !== n * k || a.vectors.length !== n * d) {
    throw new Error('model artifact sections disagree on their sizes');
  }
  const sizes = sectionSizes(v, n, k, d);
  const out = new Uint8Array(sizes.reduce((s, x) => s + x, 0));
  new Uint32Array(out.buffer, 0, HEADER_WORDS).set([MAGIC, VERSION, v, n, k, d]);
  const sections = [a.prior, a.canonical, a.candidates, a.neighbours, a.scores, a.vectors];
  let at = sizes[0];
  sections.forEach((s, i) => {
    out.set(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), at);
    at += sizes[i + 1];
  });
  return out;
}

/** Views over the artifact's bytes (no copy when they start 4-byte aligned). */
export function readArtifact(bytes: Uint8Array): ModelArtifact {
  const buf = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  if (buf.byteLength < HEADER_WORDS * 4) throw new Error('model artifact is truncated');
  const [magic, version, v, n, k, d] = new Uint32Array(buf.buffer, buf.byteOffset, HEADER_WORDS);
  if (magic !== MAGIC || version !== VERSION) throw new Error(`not a version ${VERSION} sparse model artifact`);
  const sizes = sectionSizes(v, n, k, d);
  if (buf.byteLength !== sizes.reduce((s, x) => s + x, 0)) throw new Error('model artifact size does not match its header');
  let at = buf.byteOffset + sizes[0];
  const next = (i: number): number => {
    const start = at;
    at += sizes[i];
    return start;
  };
  return {
    prior: new Float32Array(buf.buffer, next(1), v),
    canonical: new Uint16Array(buf.buffer, next(2), v),
    candidates: new Uint16Array(buf.buffer, next(3), n),
    neighbourCount: k,
    neighbours: new Uint16Array(buf.buffer, next(4), n * k),
    scores: new Uint8Array(buf.buffer, next(5), n * k),
    dimensions: d,
    vectors: new Int8Array(buf.buffer, next(6), n * d),
  };
}
