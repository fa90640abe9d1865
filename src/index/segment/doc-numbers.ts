/**
 * A number per document (seq_no, version, index order: format 4's SeqNoPacked / VersionPacked /
 * IndexOrderPacked sections), stored as Lucene packs doc values: value(doc) = base + slope × doc +
 * delta[doc], the deltas in the narrowest of 0, 8, 16 or 32 bits that holds them, else float64.
 * slope is 0 or 1: a bulk load gives each segment consecutive seq_nos and index orders in doc order
 * (slope 1, no deltas at all), and versions are mostly all 1 (slope 0, no deltas): 24 bytes per
 * doc become a few bytes per segment. Updates and deletes leave gaps, which narrow deltas hold.
 *
 * Section layout (Uint8): [base f64][slope u8][delta bytes u8: 0, 1, 2, 4 or 8][6 bytes padding]
 * [deltas, maxDoc of them]; 8-byte deltas are the values themselves (base 0, slope 0).
 */

const HEADER_BYTES = 16;

type Deltas = Uint8Array | Uint16Array | Uint32Array | Float64Array;

export class DocNumbers {
  constructor(
    private readonly base: number,
    private readonly slope: number,
    /** null: every value is base + slope × doc. */
    private readonly deltas: Deltas | null,
  ) {}

  /** Values kept as they are (segments of formats 1 to 3, whose sections are Float64). */
  static of(values: Float64Array): DocNumbers {
    return new DocNumbers(0, 0, values);
  }

  get(doc: number): number {
    const deltas = this.deltas;
    return this.base + this.slope * doc + (deltas === null ? 0 : deltas[doc]);
  }

  /** Reads a packed section (a view of the segment's buffer; nothing is copied). */
  static read(section: Uint8Array, maxDoc: number): DocNumbers {
    if (section.length < HEADER_BYTES) throw new Error('corrupt segment: packed doc numbers shorter than their header');
    const view = new DataView(section.buffer, section.byteOffset, HEADER_BYTES);
    const base = view.getFloat64(0, true);
    const slope = section[8];
    const width = section[9];
    const at = section.byteOffset + HEADER_BYTES;
    if (section.length < HEADER_BYTES + width * maxDoc) throw new Error(`corrupt segment: packed doc numbers hold fewer than ${maxDoc} values`);
    const buffer = section.buffer;
    switch (width) {
      case 0: return new DocNumbers(base, slope, null);
      case 1: return new DocNumbers(base, slope, new Uint8Array(buffer, at, maxDoc));
      case 2: return new DocNumbers(base, slope, new Uint16Array(buffer, at, maxDoc));
      case 4: return new DocNumbers(base, slope, new Uint32Array(buffer, at, maxDoc));
      case 8: return new DocNumbers(base, slope, new Float64Array(buffer, at, maxDoc));
      default: throw new Error(`corrupt segment: packed doc numbers of ${width} bytes`);
    }
  }
}

/** Packs `values` (one per doc) as DocNumbers.read reads them. */
export function packDocNumbers(values: Float64Array): Uint8Array {
  const n = values.length;
  let best: { slope: number; min: number; range: number } | null = null;
  for (const slope of [1, 0]) {
    let min = Infinity;
    let max = -Infinity;
    let exact = true;
    for (let doc = 0; doc < n && exact; doc++) {
      const v = values[doc];
      const r = v - slope * doc;
      // Only integers that stay exact through the subtraction can be rebuilt by the addition.
      if (!Number.isSafeInteger(v) || !Number.isSafeInteger(r)) exact = false;
      if (r < min) min = r;
      if (r > max) max = r;
    }
    if (exact && (best === null || max - min < best.range)) best = { slope, min: n === 0 ? 0 : min, range: n === 0 ? 0 : max - min };
  }
  const width = best === null ? 8 : best.range === 0 ? 0 : best.range < 2 ** 8 ? 1 : best.range < 2 ** 16 ? 2 : best.range < 2 ** 32 ? 4 : 8;
  const out = new Uint8Array(HEADER_BYTES + width * n);
  const header = new DataView(out.buffer, 0, HEADER_BYTES);
  if (width === 8 || best === null) {
    out[9] = 8;
    new Float64Array(out.buffer, HEADER_BYTES, n).set(values);
    return out;
  }
  header.setFloat64(0, best.min, true);
  out[8] = best.slope;
  out[9] = width;
  if (width > 0) {
    const deltas = width === 1 ? new Uint8Array(out.buffer, HEADER_BYTES, n) : width === 2 ? new Uint16Array(out.buffer, HEADER_BYTES, n) : new Uint32Array(out.buffer, HEADER_BYTES, n);
    for (let doc = 0; doc < n; doc++) deltas[doc] = values[doc] - best.slope * doc - best.min;
  }
  return out;
}
