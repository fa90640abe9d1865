/**
 * A segment opened for reading: typed-array views over its SharedArrayBuffer, and the lookups
 * search and fetch need (term → ordinal, `_id` → doc, stored fields). Plain data plus functions:
 * it can be opened on any thread, shared, saved and tested without a pool.
 */
import { Buffer } from 'node:buffer';
import { decodeString, encodeKey, fnv1a, hashLookup, lowerBound, hasKeyPrefix, scratchBytes } from './bytes.js';
import { IdMap } from './id-map.js';
import { NO_FIELD, Section, type SegmentFieldInfo, type SegmentInfo } from './format.js';
import { readDirectory, sectionView, type SectionDirectory } from './sab-layout.js';
import { blockOf, decodeBlock, firstDocOf, type StoredFieldsSections } from './stored-fields.js';
import { cachedBlock, newCacheOwner } from './stored-fields-cache.js';
import { BlockCodec, decodeDocToScratch, readVarint } from './source-codec.js';
import { readCompletionSections, type CompletionSections } from './completion-entries.js';
import { featurePostingsOf, type FeaturePostings } from './feature-postings.js';
import type { PackedPostings } from './packed-postings.js';
import { DocNumbers } from './doc-numbers.js';
import { readVectorSections, type VectorValues } from './vector-sections.js';

export interface SegmentField {
  readonly info: SegmentFieldInfo;
  readonly ord: number;
  readonly termBytes: Uint8Array | null;
  readonly termOffsets: Uint32Array | null;
  readonly termHash: Int32Array | null;
  readonly postingsStart: Uint32Array | null;
  readonly totalTermFreq: Uint32Array | null;
  /**
   * Flat postings: segments of formats 1 and 2 only (and not their packed feature fields). Readers
   * go through TermScorer's blocks or readTermPostings (term-postings.ts), which serve every format.
   */
  readonly docs: Uint32Array | null;
  readonly freqs: Uint32Array | null;
  /** Block-packed postings of text / keyword / completion fields (packed-postings.ts), format 3 on. */
  readonly postings: PackedPostings | null;
  /** sparse_vector / rank_features postings, block-packed (feature-postings.ts); null elsewhere and in format 1 segments. */
  readonly features: FeaturePostings | null;
  readonly blockStart: Uint32Array | null;
  /**
   * Block bounds of fields without impacts: in the narrowest type that holds the field's largest
   * (format 6; u32 before). Since format 6 fields with impacts have neither.
   */
  readonly blockMaxFreq: Uint8Array | Uint16Array | Uint32Array | null;
  readonly blockMinNorm: Uint8Array | null;
  /**
   * Impacts (see impacts.ts), IMPACTS_PER_BLOCK per block; null in segments written before them. The
   * freqs in the narrowest type that holds the field's largest (format 5; u32 before).
   */
  readonly blockImpactFreqs: Uint8Array | Uint16Array | Uint32Array | null;
  readonly blockImpactNorms: Uint8Array | null;
  readonly blockLastDoc: Uint32Array | null;
  readonly blockPosStart: Uint32Array | null;
  /** In the narrowest type that holds the field's largest position (format 3; Uint32 before). */
  readonly positions: Uint8Array | Uint16Array | Uint32Array | null;
  readonly norms: Uint8Array | null;
  readonly docsWithField: Uint32Array;
  readonly docValueOffsets: Uint32Array | null;
  readonly docValueNumbers: Float64Array | null;
  readonly docValueOrds: Uint32Array | null;
  readonly pointValues: Float64Array | null;
  readonly pointDocs: Uint32Array | null;
  /** `completion` fields: their entries (completion-entries.ts); null for other fields. */
  readonly completion: CompletionSections | null;
  /** `dense_vector` fields: the flat vectors (vector-sections.ts); null for every other field. */
  readonly vectors: VectorValues | null;
}

export interface Segment {
  readonly id: string;
  readonly sab: SharedArrayBuffer | ArrayBuffer;
  readonly info: SegmentInfo;
  readonly maxDoc: number;
  readonly fields: ReadonlyMap<string, SegmentField>;
  /** `_id` → doc and doc → `_id` (id-map.ts). */
  readonly ids: IdMap;
  /** Per doc: its seq_no, version and index-wide write order (doc-numbers.ts). */
  readonly seqNo: DocNumbers;
  readonly version: DocNumbers;
  readonly indexOrder: DocNumbers;
  /** Stored `_source`, compressed in blocks (format 3 on); null in older segments. */
  readonly storedFields: StoredFieldsSections | null;
  /** This opening's key space in the thread's cache of decoded blocks (stored-fields-cache.ts). */
  readonly storedFieldsOwner: number;
  /** Stored `_source` as raw UTF-8 (formats 1 and 2); null from format 3 on. */
  readonly sourceBytes: Uint8Array | null;
  readonly sourceOffsets: Uint32Array | null;
  /** A Buffer over the whole SAB, for decoding strings without copying them first. */
  readonly buffer: Buffer;
}

function featurePostings(blockOffsets: Uint32Array | null, packed: Uint8Array | null): FeaturePostings | null {
  return blockOffsets !== null && packed !== null ? featurePostingsOf(blockOffsets, packed) : null;
}

function packedPostings(blockOffsets: Uint32Array | null, bytes: Uint8Array | null): PackedPostings | null {
  return blockOffsets !== null && bytes !== null ? { blockOffsets, bytes } : null;
}

/** The field has postings (it is indexed), whatever their encoding. */
export function hasPostings(field: SegmentField): boolean {
  return field.postingsStart !== null;
}

function required<T>(v: T | null, what: string): T {
  if (v === null) throw new Error(`corrupt segment: missing section ${what}`);
  return v;
}

function storedFieldsOf(sab: SharedArrayBuffer | ArrayBuffer, dir: SectionDirectory): StoredFieldsSections | null {
  const blockDocs = sectionView(sab, dir, Uint32Array, Section.SourceBlockDocs, NO_FIELD);
  if (blockDocs === null) {
    if (!dir.entries.has(Section.SourceBytes * 0x100000000 + NO_FIELD)) throw new Error('corrupt segment: missing section SourceBlockDocs');
    return null;
  }
  return {
    blockDocs,
    blockOffsets: required(sectionView(sab, dir, Uint32Array, Section.SourceBlockOffsets, NO_FIELD), 'SourceBlockOffsets'),
    blocks: required(sectionView(sab, dir, Uint8Array, Section.SourceBlocks, NO_FIELD), 'SourceBlocks'),
    dictionary: required(sectionView(sab, dir, Uint8Array, Section.SourceDictionary, NO_FIELD), 'SourceDictionary'),
  };
}

/** A per-doc number section: packed (format 4 on) or Float64 (before). */
function docNumbers(sab: SharedArrayBuffer | ArrayBuffer, dir: SectionDirectory, packed: Section, float64: Section): DocNumbers {
  const section = sectionView(sab, dir, Uint8Array, packed, NO_FIELD);
  if (section !== null) return DocNumbers.read(section, dir.info.maxDoc);
  return DocNumbers.of(required(sectionView(sab, dir, Float64Array, float64, NO_FIELD), Section[packed]));
}

export function openSegment(id: string, sab: SharedArrayBuffer | ArrayBuffer): Segment {
  const dir = readDirectory(sab);
  const fields = new Map<string, SegmentField>();
  dir.info.fields.forEach((info, ord) => {
    const v = <T extends Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array>(ctor: { new (b: ArrayBufferLike, o: number, l: number): T; BYTES_PER_ELEMENT: number }, kind: Section) =>
      sectionView(sab, dir, ctor, kind, ord);
    fields.set(info.name, {
      info,
      ord,
      termBytes: v(Uint8Array, Section.TermBytes),
      termOffsets: v(Uint32Array, Section.TermOffsets),
      termHash: v(Int32Array, Section.TermHash),
      postingsStart: v(Uint32Array, Section.PostingsStart),
      totalTermFreq: v(Uint32Array, Section.TotalTermFreq),
      docs: v(Uint32Array, Section.PostingDocs),
      freqs: v(Uint32Array, Section.PostingFreqs),
      postings: packedPostings(v(Uint32Array, Section.PostingBlockOffsets), v(Uint8Array, Section.PostingPacked)),
      features: featurePostings(v(Uint32Array, Section.FeatureBlockOffsets), v(Uint8Array, Section.FeaturePacked)),
      blockStart: v(Uint32Array, Section.BlockStart),
      blockMaxFreq: v(Uint8Array, Section.BlockMaxFreq8) ?? v(Uint16Array, Section.BlockMaxFreq16) ?? v(Uint32Array, Section.BlockMaxFreq),
      blockMinNorm: v(Uint8Array, Section.BlockMinNorm),
      blockImpactFreqs: v(Uint8Array, Section.BlockImpactFreqs8) ?? v(Uint16Array, Section.BlockImpactFreqs16) ?? v(Uint32Array, Section.BlockImpactFreqs),
      blockImpactNorms: v(Uint8Array, Section.BlockImpactNorms),
      blockLastDoc: v(Uint32Array, Section.BlockLastDoc),
      blockPosStart: v(Uint32Array, Section.BlockPosStart),
      positions: v(Uint8Array, Section.Positions8) ?? v(Uint16Array, Section.Positions16) ?? v(Uint32Array, Section.Positions),
      norms: v(Uint8Array, Section.Norms),
      docsWithField: required(v(Uint32Array, Section.DocsWithField), 'DocsWithField'),
      docValueOffsets: v(Uint32Array, Section.DocValueOffsets),
      docValueNumbers: v(Float64Array, Section.DocValueNumbers),
      docValueOrds: v(Uint32Array, Section.DocValueOrds),
      pointValues: v(Float64Array, Section.PointValues),
      pointDocs: v(Uint32Array, Section.PointDocs),
      completion: info.structure === 'completion' ? readCompletionSections(sab, dir, ord) : null,
      vectors: info.structure === 'vector' ? readVectorSections(sab, dir, ord, info.dims) : null,
    });
  });
  const s = <T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(ctor: { new (b: ArrayBufferLike, o: number, l: number): T; BYTES_PER_ELEMENT: number }, kind: Section) =>
    required(sectionView(sab, dir, ctor, kind, NO_FIELD), Section[kind]);
  return {
    id,
    sab,
    info: dir.info,
    maxDoc: dir.info.maxDoc,
    fields,
    ids: IdMap.read(
      s(Uint8Array, Section.IdBytes),
      sectionView(sab, dir, Uint8Array, Section.IdStarts, NO_FIELD),
      sectionView(sab, dir, Uint32Array, Section.IdOffsets, NO_FIELD),
      sectionView(sab, dir, Int32Array, Section.IdHash, NO_FIELD),
      sectionView(sab, dir, Uint8Array, Section.IdHash24, NO_FIELD),
      dir.info.maxDoc,
    ),
    seqNo: docNumbers(sab, dir, Section.SeqNoPacked, Section.SeqNo),
    version: docNumbers(sab, dir, Section.VersionPacked, Section.Version),
    indexOrder: docNumbers(sab, dir, Section.IndexOrderPacked, Section.IndexOrder),
    storedFields: storedFieldsOf(sab, dir),
    storedFieldsOwner: newCacheOwner(),
    sourceBytes: sectionView(sab, dir, Uint8Array, Section.SourceBytes, NO_FIELD),
    sourceOffsets: sectionView(sab, dir, Uint32Array, Section.SourceOffsets, NO_FIELD),
    buffer: Buffer.from(sab as ArrayBuffer),
  };
}

/** The ordinal of `term` in the field's dictionary, or -1. */
export function termOrd(field: SegmentField, term: string): number {
  if (!field.termHash || !field.termBytes || !field.termOffsets) return -1;
  const len = encodeKey(term);
  return hashLookup(field.termHash, field.termBytes, field.termOffsets, len);
}

export function docFreq(field: SegmentField, ord: number): number {
  return field.postingsStart ? field.postingsStart[ord + 1] - field.postingsStart[ord] : 0;
}

export function termAt(segment: Segment, field: SegmentField, ord: number): string {
  const base = field.termBytes!.byteOffset;
  return segment.buffer.toString('utf8', base + field.termOffsets![ord], base + field.termOffsets![ord + 1]);
}

/** Ordinals [from, to) of the terms starting with `prefix` (terms are sorted by code point). */
export function prefixRange(field: SegmentField, prefix: string): [number, number] {
  if (!field.termBytes || !field.termOffsets) return [0, 0];
  const len = encodeKey(prefix);
  const count = field.info.termCount;
  const from = lowerBound(field.termBytes, field.termOffsets, count, len);
  // The terms with the prefix are a run starting at `from`: binary-search its end, since a short
  // prefix (an autocomplete's first letter) may cover a large part of the dictionary.
  let lo = from;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (hasKeyPrefix(field.termBytes, field.termOffsets, mid, len)) lo = mid + 1;
    else hi = mid;
  }
  return [from, lo];
}

/** Ordinals [from, to) of the terms within a range (keyword range queries). */
export function termRange(field: SegmentField, lower: string | null, includeLower: boolean, upper: string | null, includeUpper: boolean): [number, number] {
  if (!field.termBytes || !field.termOffsets) return [0, 0];
  const count = field.info.termCount;
  let from = 0;
  let to = count;
  if (lower !== null) {
    const len = encodeKey(lower);
    from = lowerBound(field.termBytes, field.termOffsets, count, len);
    if (!includeLower && from < count && hashLookup(field.termHash!, field.termBytes, field.termOffsets, len) === from) from++;
  }
  if (upper !== null) {
    const len = encodeKey(upper);
    to = lowerBound(field.termBytes, field.termOffsets, count, len);
    if (includeUpper && to < count && hashLookup(field.termHash!, field.termBytes, field.termOffsets, len) === to) to++;
  }
  return [from, Math.max(from, to)];
}

/** The doc with this `_id` in the segment (live or not), or -1. */
export function docForId(segment: Segment, id: string): number {
  const len = encodeKey(id);
  return segment.ids.lookup(scratchBytes(), len, fnv1a(scratchBytes(), 0, len));
}

/** Short ASCII strings decode faster in JS than through Buffer#toString's native call. */
function decodeShort(bytes: Uint8Array, start: number, end: number, buffer: Buffer, base: number): string {
  if (end - start <= 32) {
    let s = '';
    for (let i = start; i < end; i++) {
      const c = bytes[i];
      if (c >= 0x80) return buffer.toString('utf8', base + start, base + end);
      s += String.fromCharCode(c);
    }
    return s;
  }
  return buffer.toString('utf8', base + start, base + end);
}

export function readId(segment: Segment, doc: number): string {
  const ids = segment.ids;
  return decodeShort(ids.bytes, ids.start(doc), ids.start(doc + 1), segment.buffer, ids.bytes.byteOffset);
}

/**
 * Where a doc's stored `_source` bytes are: `buffer[start, end)` (empty: none stored). One object
 * per thread, overwritten by every read (a fetch reads one doc at a time and copies it at once).
 */
export interface SourceRange {
  buffer: Buffer;
  start: number;
  end: number;
}

const located: SourceRange = { buffer: Buffer.alloc(0), start: 0, end: 0 };

/**
 * Locates a doc's stored `_source` bytes (decoding them into the thread's scratch when compressed):
 * the range is valid until the next stored-fields read on this thread. Allocates nothing for the
 * `default` codec, so a fetch can copy the bytes where it writes the page.
 */
export function locateSourceBytes(segment: Segment, doc: number): SourceRange {
  const stored = segment.storedFields;
  if (stored === null) {
    const base = segment.sourceBytes!.byteOffset;
    located.buffer = segment.buffer;
    located.start = base + segment.sourceOffsets![doc];
    located.end = base + segment.sourceOffsets![doc + 1];
    return located;
  }
  const block = blockOf(stored.blockDocs, doc);
  const blocks = stored.blocks;
  const at = stored.blockOffsets[block];
  const kind = blocks[at];
  if (kind === BlockCodec.Lz4Doc) {
    // The `default` codec (format 4): the doc alone, decoded into the thread's scratch buffer.
    const length = decodeDocToScratch(blocks, at, stored.blockOffsets[block + 1], stored.dictionary, located);
    located.end = located.start + length;
    return located;
  }
  if (kind === BlockCodec.RawDoc) {
    // [RawDoc][the doc's length][its bytes]: a view of the segment, nothing decoded.
    const [docLength, start] = readVarint(blocks, at + 1);
    const base = blocks.byteOffset;
    located.buffer = segment.buffer;
    located.start = base + start;
    located.end = base + start + docLength;
    return located;
  }
  const docs = stored.blockDocs.length === 1 ? 1 : stored.blockDocs[block + 1] - stored.blockDocs[block];
  if (kind === BlockCodec.Raw && docs === 1) {
    // Format 3's `default`: [Raw][block length][the doc's length][its bytes], read in place too.
    const [, lengthEnd] = readVarint(blocks, at + 1);
    const [docLength, start] = readVarint(blocks, lengthEnd);
    const base = blocks.byteOffset;
    located.buffer = segment.buffer;
    located.start = base + start;
    located.end = base + start + docLength;
    return located;
  }
  const decoded = cachedBlock(segment.storedFieldsOwner, block, () => decodeBlock(stored, block));
  const i = doc - firstDocOf(stored.blockDocs, block);
  located.buffer = decoded.bytes;
  located.start = decoded.starts[i];
  located.end = decoded.starts[i + 1];
  return located;
}

/**
 * Reads the first byte of a doc's `_id` and of its stored `_source` block, and returns their sum
 * (for the caller to keep, so the reads stay). A page's fetch meets a few cold cache lines per hit
 * (where the id starts, the id, where the block starts, the block): touched for every hit of the
 * page in one tight loop first, the misses of different hits are waited for side by side instead of
 * one hit after another.
 */
export function touchStoredDoc(segment: Segment, doc: number): number {
  const ids = segment.ids;
  let sum = ids.bytes[ids.start(doc)];
  const stored = segment.storedFields;
  if (stored !== null && stored.blockDocs.length === 1) sum += stored.blocks[stored.blockOffsets[doc]];
  return sum;
}

/** The stored `_source` JSON text, or null when the index does not store it. */
export function readSource(segment: Segment, doc: number): string | null {
  const { buffer, start, end } = locateSourceBytes(segment, doc);
  return start === end ? null : buffer.toString('utf8', start, end);
}

/** The stored `_source` bytes of a doc (null when none), to copy elsewhere (a merge): a view, valid until the next read. */
export function readSourceBytes(segment: Segment, doc: number): Uint8Array | null {
  const { buffer, start, end } = locateSourceBytes(segment, doc);
  return start === end ? null : buffer.subarray(start, end);
}

/** The surface text of a completion entry (what a suggestion option shows). */
export function readCompletionText(segment: Segment, field: SegmentField, entry: number): string {
  const c = field.completion!;
  const base = c.surfaceBytes.byteOffset;
  return decodeShort(c.surfaceBytes, c.surfaceOffsets[entry], c.surfaceOffsets[entry + 1], segment.buffer, base);
}

export { decodeString };
