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

/** One field's sections (the merger writes fields one at a time, letting each one's arrays go). */
export function writeField(w: SectionSink, ord: number, f: FieldInput, maxDoc: number): SegmentFieldInfo {
  let sumTotalTermFreq = 0;
  const postings = f.docs ? f.docs.length : 0;
  if (f.terms && f.postingsStart) {
    w.add(Section.TermBytes, ord, f.terms.bytes);
    w.add(Section.TermOffsets, ord, f.terms.offsets);
    w.add(Section.TermHash, ord, buildHashTable(f.terms, f.termCount));
  }
  if (f.indexed && f.postingsStart && f.docs) {
    const features = f.structure === 'features' && f.freqs !== null;
    w.add(Section.PostingsStart, ord, f.postingsStart);
    const blockStart = scratchUint32(f.termCount + 1);
    let blocks = 0;
    for (let t = 0; t < f.termCount; t++) {
      blockStart[t] = blocks;
      blocks += Math.ceil((f.postingsStart[t + 1] - f.postingsStart[t]) / BLOCK_SIZE);
    }
    blockStart[f.termCount] = blocks;
    const blockMaxFreq = scratchUint32(blocks);
    const blockMinNorm = scratchUint8(blocks);
    const impactFreqs = f.norms ? scratchUint32(blocks * IMPACTS_PER_BLOCK) : null;
    const impactNorms = f.norms ? scratchUint8(blocks * IMPACTS_PER_BLOCK) : null;
    const blockLastDoc = scratchUint32(blocks);
    const blockPosStart = f.positions ? scratchUint32(blocks) : null;
    // Feature freqs are encoded weights, not counts: no total term frequencies (their sums would
    // not fit a u32 either).
    const ttf = f.freqs && f.structure !== 'features' ? scratchUint32(f.termCount) : null;
    let pos = 0;
    for (let t = 0; t < f.termCount; t++) {
      const start = f.postingsStart[t];
      const end = f.postingsStart[t + 1];
      for (let b = blockStart[t], p = start; p < end; b++) {
        const blockEnd = Math.min(p + BLOCK_SIZE, end);
        let maxFreq = 1;
        let minNorm = 255;
        if (blockPosStart) blockPosStart[b] = pos;
        for (let i = p; i < blockEnd; i++) {
          const freq = f.freqs ? f.freqs[i] : 1;
          if (freq > maxFreq) maxFreq = freq;
          if (f.norms) {
            const n = f.norms[f.docs[i]];
            if (n < minNorm) minNorm = n;
          }
          pos += freq;
        }
        blockMaxFreq[b] = maxFreq;
        blockMinNorm[b] = f.norms ? minNorm : 1;
        if (f.norms && impactFreqs && impactNorms) writeBlockImpacts(f.docs, f.freqs, f.norms, p, blockEnd, b, impactFreqs, impactNorms);
        blockLastDoc[b] = f.docs[blockEnd - 1];
        p = blockEnd;
      }
      if (ttf && f.freqs) {
        let s = 0;
        for (let i = start; i < end; i++) s += f.freqs[i];
        ttf[t] = s;
        sumTotalTermFreq += s;
      }
    }
    if (!ttf) sumTotalTermFreq = postings;
    w.add(Section.BlockStart, ord, blockStart);
    w.add(Section.BlockMaxFreq, ord, blockMaxFreq);
    if (!features) w.add(Section.BlockMinNorm, ord, blockMinNorm);
    if (impactFreqs && impactNorms) {
      w.add(Section.BlockImpactFreqs, ord, impactFreqs);
      w.add(Section.BlockImpactNorms, ord, impactNorms);
    }
    w.add(Section.BlockLastDoc, ord, blockLastDoc);
    if (features) {
      const packed = encodeFeaturePostings(f.postingsStart, f.termCount, blockStart, f.docs, f.freqs!);
      w.add(Section.FeatureBlockOffsets, ord, packed.blockOffsets);
      w.add(Section.FeaturePacked, ord, packed.packed);
    } else {
      const packed = encodePostings(f.postingsStart, f.termCount, blockStart, f.docs, f.freqs);
      w.add(Section.PostingBlockOffsets, ord, packed.blockOffsets);
      w.add(Section.PostingPacked, ord, packed.bytes);
    }
    if (ttf) w.add(Section.TotalTermFreq, ord, ttf);
    if (f.positions && blockPosStart) {
      addPositions(w, ord, f.positions);
      w.add(Section.BlockPosStart, ord, blockPosStart);
    }
  }
  if (f.norms) w.add(Section.Norms, ord, f.norms);
  if (f.completion) writeCompletionEntries(w, ord, f.completion);
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
  return {
    name: f.name,
    type: f.type,
    structure: f.structure,
    indexed: f.indexed && f.docs !== null,
    hasFreqs: f.freqs !== null,
    hasPositions: f.positions !== null,
    hasNorms: f.norms !== null,
    hasDocValues: f.docValueOffsets !== null,
    termCount: f.termCount,
    docCount: f.docs !== null ? docsWithTerms(f.docs, maxDoc) : popcount(f.docsWithField),
    sumTotalTermFreq,
    sumDocFreq: postings,
  };
}

/**
 * Positions in the narrowest unsigned type that holds the largest: short documents' positions fit
 * a byte, which is a quarter of the u32 they took before format 3.
 */
function addPositions(w: SectionSink, ord: number, positions: Uint8Array | Uint16Array | Uint32Array): void {
  let max = 0;
  for (let i = 0; i < positions.length; i++) if (positions[i] > max) max = positions[i];
  // Already narrow (the merger's arrays): written as they are, not copied first.
  if (max < 0x100) w.add(Section.Positions8, ord, positions instanceof Uint8Array ? positions : narrowed(scratchUint8(positions.length, false), positions));
  else if (max < 0x10000) w.add(Section.Positions16, ord, positions instanceof Uint16Array ? positions : narrowed(scratchUint16(positions.length, false), positions));
  else w.add(Section.Positions, ord, positions instanceof Uint32Array ? positions : new Uint32Array(positions));
}

/** `to` holding `from`'s values (each fits: the caller checked the largest). */
function narrowed<T extends Uint8Array | Uint16Array>(to: T, from: Uint8Array | Uint16Array | Uint32Array): T {
  to.set(from);
  return to;
}

/** Numeric values sorted ascending with their docs: range queries binary-search this. */
function buildPoints(offsets: Uint32Array, numbers: Float64Array): { values: Float64Array; docs: Uint32Array } {
  const n = numbers.length;
  const docOf = new Uint32Array(n);
  for (let d = 0; d + 1 < offsets.length; d++) for (let i = offsets[d]; i < offsets[d + 1]; i++) docOf[i] = d;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => numbers[a] - numbers[b] || docOf[a] - docOf[b]);
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
  w.add(Section.IdBytes, NO_FIELD, c.ids.bytes);
  w.add(Section.IdStarts, NO_FIELD, packIdStarts(c.ids.offsets));
  const hash24 = buildIdHash24(c.ids.bytes, c.ids.offsets, maxDoc);
  if (hash24 !== null) w.add(Section.IdHash24, NO_FIELD, hash24);
  else w.add(Section.IdHash, NO_FIELD, buildHashTable(c.ids, maxDoc));
  w.add(Section.SeqNoPacked, NO_FIELD, packDocNumbers(c.seqNo));
  w.add(Section.VersionPacked, NO_FIELD, packDocNumbers(c.version));
  w.add(Section.IndexOrderPacked, NO_FIELD, packDocNumbers(c.indexOrder));
}

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
