/**
 * SegmentInput → one SharedArrayBuffer (format.ts). Derives what search needs beyond the input:
 * hash tables for terms and ids, per-block max freq / min norm / last doc / position start, term
 * total frequencies, field statistics, and sorted points for numeric range queries.
 */
import { packDocNumbers } from './doc-numbers.js';
import { buildIdHash24, packIdStarts } from './id-map.js';
import { buildHashTable } from './bytes.js';
import { BLOCK_SIZE, IMPACTS_PER_BLOCK, NO_FIELD, Section, type SegmentFieldInfo, type SegmentInfo } from './format.js';
import { writeBlockImpacts } from './impacts.js';
import { writeCompletionEntries } from './completion-entries.js';
import { writeVectorSections } from './vector-sections.js';
import { encodeFeaturePostings } from './feature-postings.js';
import { encodePostings } from './packed-postings.js';
import { SectionWriter, type SectionSink } from './sab-layout.js';
import { scratchUint16, scratchUint32, scratchUint8 } from './scratch-pool.js';
import type { FieldInput, SegmentInput } from './segment-input.js';
import type { StringTable } from './bytes.js';
import type { StoredFieldsSections } from './stored-fields.js';

function popcount(words: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < words.length; i++) {
    let v = words[i];
    v = v - ((v >>> 1) & 0x55555555);
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    n += (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
  }
  return n;
}

/** Documents with at least one posting (Lucene `Terms.getDocCount`, the N of BM25's idf). */
function docsWithTerms(docs: Uint32Array, maxDoc: number): number {
  const seen = new Uint32Array((maxDoc + 31) >>> 5);
  let n = 0;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i];
    const m = 1 << (d & 31);
    if ((seen[d >>> 5] & m) === 0) {
      seen[d >>> 5] |= m;
      n++;
    }
  }
  return n;
}

/** Per-block metadata of a field's postings (what scorers skip by) and per-term total freqs. */
export interface BlockMetadata {
  readonly blockMaxFreq: Uint32Array;
  readonly blockMinNorm: Uint8Array;
  readonly impactFreqs: Uint32Array | null;
  readonly impactNorms: Uint8Array | null;
  readonly blockLastDoc: Uint32Array;
  readonly blockPosStart: Uint32Array | null;
  /** Feature freqs are encoded weights, not counts: no total term frequencies (their sums would not fit a u32 either). */
  readonly ttf: Uint32Array | null;
}

/** Metadata arrays for `blocks` blocks (at least: a merge sizes them by a bound) and `terms` terms. */
export function newBlockMetadata(blocks: number, terms: number, norms: boolean, positions: boolean, ttf: boolean): BlockMetadata {
  return {
    blockMaxFreq: scratchUint32(blocks),
    blockMinNorm: scratchUint8(blocks),
    impactFreqs: norms ? scratchUint32(blocks * IMPACTS_PER_BLOCK) : null,
    impactNorms: norms ? scratchUint8(blocks * IMPACTS_PER_BLOCK) : null,
    blockLastDoc: scratchUint32(blocks),
    blockPosStart: positions ? scratchUint32(blocks) : null,
    ttf: ttf ? scratchUint32(terms) : null,
  };
}

/**
 * One metadata object that lives as long as the module, so V8 keeps its hidden class between
 * builds (issue 19; see BLOCK_SINK_SHAPE in stored-fields.ts): the block metadata loops were
 * compiled again after full collections between two builds. Zero blocks: a few empty arrays.
 */
export const BLOCK_METADATA_SHAPE: BlockMetadata = newBlockMetadata(0, 0, true, true, true);

/**
 * Fills the metadata of term `t`, whose postings are docs/freqs[start, end) in blocks firstBlock …;
 * `pos` is the position index of its first posting. Returns the position index after the term.
 */
export function termBlockMetadata(
  m: BlockMetadata, t: number, firstBlock: number, docs: Uint32Array, freqs: Uint32Array | null, norms: Uint8Array | null, start: number, end: number, pos: number,
): number {
  const termPos = pos;
  for (let b = firstBlock, p = start; p < end; b++) {
    const blockEnd = Math.min(p + BLOCK_SIZE, end);
    let maxFreq = 1;
    let minNorm = 255;
    if (m.blockPosStart) m.blockPosStart[b] = pos;
    for (let i = p; i < blockEnd; i++) {
      const freq = freqs ? freqs[i] : 1;
      if (freq > maxFreq) maxFreq = freq;
      if (norms) {
        const n = norms[docs[i]];
        if (n < minNorm) minNorm = n;
      }
      pos += freq;
    }
    m.blockMaxFreq[b] = maxFreq;
    m.blockMinNorm[b] = norms ? minNorm : 1;
    if (norms && m.impactFreqs && m.impactNorms) writeBlockImpacts(docs, freqs, norms, p, blockEnd, b, m.impactFreqs, m.impactNorms);
    m.blockLastDoc[b] = docs[blockEnd - 1];
    p = blockEnd;
  }
  if (m.ttf) m.ttf[t] = pos - termPos;
  return pos;
}

/** A field's postings sections but the packed bytes (which a merge has already written). */
export interface PostingsSections {
  readonly postingsStart: Uint32Array;
  readonly termCount: number;
  readonly blockStart: Uint32Array;
  readonly metadata: BlockMetadata;
  readonly features: boolean;
  readonly positions: Uint8Array | Uint16Array | Uint32Array | null;
}

/** Adds the postings sections; `packed` when the packed bytes are not yet written (a merge streams them). */
export function addPostingsSections(w: SectionSink, ord: number, s: PostingsSections, blockOffsets: Uint32Array, packed: Uint8Array | null): void {
  const blocks = s.blockStart[s.termCount];
  const m = s.metadata;
  w.add(Section.PostingsStart, ord, s.postingsStart);
  w.add(Section.BlockStart, ord, s.blockStart);
  // With impacts, a block's bound is its impacts (the term scorer's blockMaxScore): its max freq and
  // min norm would never be read, and were 2–5 B of every term of a refresh's segment (format 6).
  if (!m.impactFreqs || !m.impactNorms) {
    addNarrowest(w, ord, m.blockMaxFreq.subarray(0, blocks), Section.BlockMaxFreq8, Section.BlockMaxFreq16, Section.BlockMaxFreq);
    if (!s.features) w.add(Section.BlockMinNorm, ord, m.blockMinNorm.subarray(0, blocks));
  } else {
    addNarrowest(w, ord, m.impactFreqs.subarray(0, blocks * IMPACTS_PER_BLOCK), Section.BlockImpactFreqs8, Section.BlockImpactFreqs16, Section.BlockImpactFreqs);
    w.add(Section.BlockImpactNorms, ord, m.impactNorms.subarray(0, blocks * IMPACTS_PER_BLOCK));
  }
  w.add(Section.BlockLastDoc, ord, m.blockLastDoc.subarray(0, blocks));
  w.add(s.features ? Section.FeatureBlockOffsets : Section.PostingBlockOffsets, ord, blockOffsets);
  if (packed) w.add(s.features ? Section.FeaturePacked : Section.PostingPacked, ord, packed);
  if (m.ttf) w.add(Section.TotalTermFreq, ord, m.ttf.subarray(0, s.termCount));
  if (s.positions && m.blockPosStart) {
    addNarrowest(w, ord, s.positions, Section.Positions8, Section.Positions16, Section.Positions);
    w.add(Section.BlockPosStart, ord, m.blockPosStart.subarray(0, blocks));
  }
}

/** The term dictionary's sections. */
export function addTermSections(w: SectionSink, ord: number, terms: StringTable, termCount: number): void {
  w.add(Section.TermBytes, ord, terms.bytes);
  w.add(Section.TermOffsets, ord, terms.offsets);
  w.add(Section.TermHash, ord, buildHashTable(terms, termCount));
}

// writeField's loops are their own functions: a build runs them once, so in a fresh worker V8
// compiles them on the fly (OSR), and inside writeField each such compile took the whole method
// with everything it calls (13 TurboFan jobs of writeField in one 100k-doc load, issue 19).

/** Each term's first block (at t) and the block count (at termCount). */
function blockStarts(postingsStart: Uint32Array, termCount: number): Uint32Array {
  const blockStart = scratchUint32(termCount + 1);
  let blocks = 0;
  for (let t = 0; t < termCount; t++) {
    blockStart[t] = blocks;
    blocks += Math.ceil((postingsStart[t + 1] - postingsStart[t]) / BLOCK_SIZE);
  }
  blockStart[termCount] = blocks;
  return blockStart;
}

/** Every term's block metadata; returns the summed term frequencies (termBlockMetadata's running total). */
function fillBlockMetadata(
  metadata: BlockMetadata, blockStart: Uint32Array, docs: Uint32Array, freqs: Uint32Array | null, norms: Uint8Array | null,
  postingsStart: Uint32Array, termCount: number,
): number {
  let pos = 0;
  for (let t = 0; t < termCount; t++) pos = termBlockMetadata(metadata, t, blockStart[t], docs, freqs, norms, postingsStart[t], postingsStart[t + 1], pos);
  return pos;
}

/** One field's sections (the merger writes fields one at a time, letting each one's arrays go). */
export function writeField(w: SectionSink, ord: number, f: FieldInput, maxDoc: number): SegmentFieldInfo {
  let sumTotalTermFreq = 0;
  const postings = f.docs ? f.docs.length : 0;
  if (f.terms && f.postingsStart) addTermSections(w, ord, f.terms, f.termCount);
  if (f.indexed && f.postingsStart && f.docs) {
    const features = f.structure === 'features' && f.freqs !== null;
    const blockStart = blockStarts(f.postingsStart, f.termCount);
    const metadata = newBlockMetadata(blockStart[f.termCount], f.termCount, f.norms !== null, f.positions !== null, f.freqs !== null && f.structure !== 'features');
    const pos = fillBlockMetadata(metadata, blockStart, f.docs, f.freqs, f.norms, f.postingsStart, f.termCount);
    sumTotalTermFreq = metadata.ttf ? pos : postings;
    const packed = features
      ? encodeFeaturePostings(f.postingsStart, f.termCount, blockStart, f.docs, f.freqs!)
      : encodePostings(f.postingsStart, f.termCount, blockStart, f.docs, f.freqs);
    const bytes = 'packed' in packed ? packed.packed : packed.bytes;
    addPostingsSections(w, ord, { postingsStart: f.postingsStart, termCount: f.termCount, blockStart, metadata, features, positions: f.positions }, packed.blockOffsets, bytes);
  }
  addFieldTail(w, ord, f);
  return fieldInfo(f, {
    indexed: f.indexed && f.docs !== null, hasFreqs: f.freqs !== null, hasPositions: f.positions !== null, termCount: f.termCount,
    docCount: f.docs !== null ? docsWithTerms(f.docs, maxDoc) : popcount(f.docsWithField), sumTotalTermFreq, sumDocFreq: postings,
  });
}

/** Norms, completion entries, docs with the field and doc values. */
export function addFieldTail(w: SectionSink, ord: number, f: FieldInput): void {
  if (f.norms) w.add(Section.Norms, ord, f.norms);
  if (f.completion) writeCompletionEntries(w, ord, f.completion);
  if (f.vectors) writeVectorSections(w, ord, f.vectors);
  w.add(Section.DocsWithField, ord, f.docsWithField);
  if (f.docValueOffsets) {
    w.add(Section.DocValueOffsets, ord, f.docValueOffsets);
    if (f.docValueOrds) w.add(Section.DocValueOrds, ord, f.docValueOrds);
    if (f.docValueNumbers) {
      w.add(Section.DocValueNumbers, ord, f.docValueNumbers);
      const { values, docs } = buildPoints(f.docValueOffsets, f.docValueNumbers);
      w.add(Section.PointValues, ord, values);
      w.add(Section.PointDocs, ord, docs);
    }
  }
}

/** What a field's info says about its postings. */
export type PostingsInfo = Pick<SegmentFieldInfo, 'indexed' | 'hasFreqs' | 'hasPositions' | 'termCount' | 'docCount' | 'sumTotalTermFreq' | 'sumDocFreq'>;

export function fieldInfo(f: FieldInput, p: PostingsInfo): SegmentFieldInfo {
  const info: SegmentFieldInfo = {
    name: f.name,
    type: f.type,
    structure: f.structure,
    indexed: p.indexed,
    hasFreqs: p.hasFreqs,
    hasPositions: p.hasPositions,
    hasNorms: f.norms !== null,
    hasDocValues: f.docValueOffsets !== null,
    termCount: p.termCount,
    docCount: p.docCount,
    sumTotalTermFreq: p.sumTotalTermFreq,
    sumDocFreq: p.sumDocFreq,
  };
  // Only vector fields carry `dims`: every other field's info (and so its segment) stays as it was.
  return f.vectors ? { ...info, dims: f.vectors.dims } : info;
}

/**
 * `values` as section `u8`, `u16` or `u32`: the narrowest unsigned type that holds their largest —
 * positions (short docs fit a byte), and since formats 5 and 6 block impact freqs and block max
 * freqs (a refresh's segment has about one block per term, and short docs' freqs fit a byte).
 * Arrays already narrow (the merger's positions) are written as they are, not copied first.
 */
function addNarrowest(w: SectionSink, ord: number, values: Uint8Array | Uint16Array | Uint32Array, u8: Section, u16: Section, u32: Section): void {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i] > max) max = values[i];
  if (max < 0x100) w.add(u8, ord, values instanceof Uint8Array ? values : narrowed(scratchUint8(values.length, false), values));
  else if (max < 0x10000) w.add(u16, ord, values instanceof Uint16Array ? values : narrowed(scratchUint16(values.length, false), values));
  else w.add(u32, ord, values instanceof Uint32Array ? values : new Uint32Array(values));
}

/** `to` holding `from`'s values (each fits: the caller checked the largest). */
function narrowed<T extends Uint8Array | Uint16Array>(to: T, from: Uint8Array | Uint16Array | Uint32Array): T {
  to.set(from);
  return to;
}

/**
 * buildPoints' sort order (by value, then doc) as one module-level comparator reading its arrays
 * from here, not a closure per call: V8 keeps a closure's optimized code only while a closure of it
 * is alive, so a per-build closure's code was compiled again after every full collection between
 * builds (issue 19).
 */
let pointNumbers: Float64Array = new Float64Array(0);
let pointDocOf: Uint32Array = new Uint32Array(0);
const NO_NUMBERS = pointNumbers;
const NO_DOCS = pointDocOf;

function comparePoints(a: number, b: number): number {
  return pointNumbers[a] - pointNumbers[b] || pointDocOf[a] - pointDocOf[b];
}

/** Numeric values sorted ascending with their docs: range queries binary-search this. */
function buildPoints(offsets: Uint32Array, numbers: Float64Array): { values: Float64Array; docs: Uint32Array } {
  const n = numbers.length;
  const docOf = new Uint32Array(n);
  for (let d = 0; d + 1 < offsets.length; d++) for (let i = offsets[d]; i < offsets[d + 1]; i++) docOf[i] = d;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  pointNumbers = numbers;
  pointDocOf = docOf;
  order.sort(comparePoints);
  pointNumbers = NO_NUMBERS;
  pointDocOf = NO_DOCS;
  const values = new Float64Array(n);
  const docs = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    values[i] = numbers[order[i]];
    docs[i] = docOf[order[i]];
  }
  return { values, docs };
}

/** The per-document columns: ids (with their hash), seq_no, version, index order. */
export interface DocColumns {
  readonly ids: StringTable;
  readonly seqNo: Float64Array;
  readonly version: Float64Array;
  readonly indexOrder: Float64Array;
}

export function writeDocColumns(w: SectionSink, maxDoc: number, c: DocColumns): void {
  writeIdSections(w, maxDoc, c.ids);
  const columns = [c.seqNo, c.version, c.indexOrder];
  DOC_NUMBER_SECTIONS.forEach((kind, i) => w.add(kind, NO_FIELD, packDocNumbers(columns[i])));
}

/** The `_id` sections of writeDocColumns (bytes, packed starts, hash), in its order. */
export function writeIdSections(w: SectionSink, maxDoc: number, ids: StringTable): void {
  w.add(Section.IdBytes, NO_FIELD, ids.bytes);
  w.add(Section.IdStarts, NO_FIELD, packIdStarts(ids.offsets));
  const hash24 = buildIdHash24(ids.bytes, ids.offsets, maxDoc);
  if (hash24 !== null) w.add(Section.IdHash24, NO_FIELD, hash24);
  else w.add(Section.IdHash, NO_FIELD, buildHashTable(ids, maxDoc));
}

/** The doc-number sections of writeDocColumns, in its order (a merge writes them one at a time). */
export const DOC_NUMBER_SECTIONS = [Section.SeqNoPacked, Section.VersionPacked, Section.IndexOrderPacked] as const;

/** `blocksWritten`: SourceBlocks went into the segment as they were encoded (a merge's). */
export function writeStoredFields(w: SectionSink, sources: StoredFieldsSections, blocksWritten = false): void {
  w.add(Section.SourceBlockDocs, NO_FIELD, sources.blockDocs);
  w.add(Section.SourceBlockOffsets, NO_FIELD, sources.blockOffsets);
  if (!blocksWritten) w.add(Section.SourceBlocks, NO_FIELD, sources.blocks);
  w.add(Section.SourceDictionary, NO_FIELD, sources.dictionary);
}

export function writeSegment(input: SegmentInput): SharedArrayBuffer {
  const w = new SectionWriter();
  writeDocColumns(w, input.maxDoc, input);
  writeStoredFields(w, input.sources);
  const fields = input.fields.map((f, ord) => writeField(w, ord, f, input.maxDoc));
  const info: SegmentInfo = { maxDoc: input.maxDoc, fields };
  return w.finish(info);
}
