/**
 * Existing segments → one SegmentInput (Lucene's SegmentMerger): documents keep their order
 * (segments are merged in order, so write order and tie-breaking survive), deleted documents are
 * dropped, term dictionaries are unioned in code-point order, postings/positions/norms/doc values
 * are copied with remapped doc ids, and keyword ordinals are renumbered.
 */
import { compareCodePoints, encodeStrings, type StringTable } from './bytes.js';
import { GrowableFloat64, GrowableUint32 } from './growable.js';
import { bitsetWords, getBit, isLive, setBit, type LiveDocs } from './live-docs.js';
import type { FieldInput, SegmentInput } from './segment-input.js';
import { readId, readSourceBytes, type Segment, type SegmentField } from './segment-reader.js';
import type { IndexCodec } from './source-codec.js';
import { encodeStoredFields } from './stored-fields.js';
import { mergeCompletionEntries } from './completion-merge.js';
import { readTermPostings } from './term-postings.js';
import { selectStrings, unionTerms } from './term-union.js';

const EMPTY_BYTES = new Uint8Array(0);
const EMPTY_OFFSETS = new Uint32Array(1);

export interface MergeSource {
  readonly segment: Segment;
  readonly liveDocs: LiveDocs;
}


export function mergeSegments(sources: readonly MergeSource[], codec: IndexCodec = 'default'): SegmentInput {
  // Doc id maps: old doc → new doc, or -1 when deleted.
  const docMaps: Int32Array[] = [];
  let maxDoc = 0;
  for (const { segment, liveDocs } of sources) {
    const map = new Int32Array(segment.maxDoc);
    for (let d = 0; d < segment.maxDoc; d++) map[d] = isLive(liveDocs, d) ? maxDoc++ : -1;
    docMaps.push(map);
  }

  const ids: string[] = [];
  // Stored sources are copied as bytes, block by block (never decoded to strings): new doc → (source, old doc).
  const fromSource = new Uint32Array(maxDoc);
  const fromDoc = new Uint32Array(maxDoc);
  const seqNo = new Float64Array(maxDoc);
  const version = new Float64Array(maxDoc);
  const indexOrder = new Float64Array(maxDoc);
  sources.forEach(({ segment }, s) => {
    const map = docMaps[s];
    for (let d = 0; d < segment.maxDoc; d++) {
      const nd = map[d];
      if (nd < 0) continue;
      ids.push(readId(segment, d));
      fromSource[nd] = s;
      fromDoc[nd] = d;
      seqNo[nd] = segment.seqNo.get(d);
      version[nd] = segment.version.get(d);
      indexOrder[nd] = segment.indexOrder.get(d);
    }
  });

  const fieldNames = new Set<string>();
  for (const { segment } of sources) for (const name of segment.fields.keys()) fieldNames.add(name);
  const fields = [...fieldNames].sort(compareCodePoints).map((name) => mergeField(name, sources, docMaps, maxDoc));

  return {
    maxDoc,
    ids: encodeStrings(ids),
    seqNo,
    version,
    indexOrder,
    sources: encodeStoredFields(maxDoc, (nd) => readSourceBytes(sources[fromSource[nd]].segment, fromDoc[nd]), codec),
    fields,
  };
}

function mergeField(name: string, sources: readonly MergeSource[], docMaps: Int32Array[], maxDoc: number): FieldInput {
  const parts: Array<{ s: number; f: SegmentField }> = [];
  sources.forEach(({ segment }, s) => {
    const f = segment.fields.get(name);
    if (f) parts.push({ s, f });
  });
  const first = parts[0].f.info;
  const docsWithField = new Uint32Array(bitsetWords(maxDoc));
  let norms: Uint8Array | null = first.hasNorms ? new Uint8Array(maxDoc) : null;
  for (const { s, f } of parts) {
    const map = docMaps[s];
    for (let d = 0; d < map.length; d++) {
      const nd = map[d];
      if (nd < 0 || !getBit(f.docsWithField, d)) continue;
      setBit(docsWithField, nd);
      if (norms && f.norms) norms[nd] = f.norms[d];
    }
  }
  if (first.structure === 'numeric') {
    const offsets = new Uint32Array(maxDoc + 1);
    const numbers = new GrowableFloat64();
    let nd = 0;
    for (const { s, f } of parts) {
      // Segments without the field contribute empty ranges for their docs.
      while (nd < firstNewDoc(docMaps, s)) offsets[++nd] = numbers.length;
      const map = docMaps[s];
      for (let d = 0; d < map.length; d++) {
        if (map[d] < 0) continue;
        for (let i = f.docValueOffsets![d]; i < f.docValueOffsets![d + 1]; i++) numbers.push(f.docValueNumbers![i]);
        offsets[++nd] = numbers.length;
      }
    }
    while (nd < maxDoc) offsets[++nd] = numbers.length;
    return {
      name, type: first.type, structure: 'numeric', indexed: first.indexed, terms: null, termCount: 0, postingsStart: null,
      docs: null, freqs: null, positions: null, norms: null, docsWithField, docValueOffsets: offsets,
      docValueNumbers: numbers.toArray(), docValueOrds: null,
    };
  }

  // Union of the term dictionaries, with each segment's old ordinal → new ordinal.
  const union = unionTerms(parts.map(({ f }) => ({
    bytes: f.termBytes ?? EMPTY_BYTES, offsets: f.termOffsets ?? EMPTY_OFFSETS, count: f.termBytes ? f.info.termCount : 0,
  })));
  const { termCount: unionCount, ordMaps, entryStart, entryPart, entryOldOrd } = union;

  // Postings: for each new term, each segment's postings in segment order (doc ids stay ascending).
  const postingsStart = new Uint32Array(unionCount + 1);
  let postingsBound = 0;
  let positionsBound = 0;
  for (const { f } of parts) {
    postingsBound += f.docs ? f.docs.length : f.postingsStart ? f.postingsStart[f.info.termCount] : 0;
    positionsBound += f.positions ? f.positions.length : 0;
  }
  const docs = new GrowableUint32(Math.max(16, postingsBound));
  const freqs = first.hasFreqs ? new GrowableUint32(Math.max(16, postingsBound)) : null;
  const positions = first.hasPositions ? new GrowableUint32(Math.max(16, positionsBound)) : null;
  let emptied = false;
  for (let t = 0; t < unionCount; t++) {
    postingsStart[t] = docs.length;
    for (let e = entryStart[t]; e < entryStart[t + 1]; e++) {
      const oldOrd = entryOldOrd[e];
      const { s, f } = parts[entryPart[e]];
      if (!f.postingsStart) continue;
      const map = docMaps[s];
      // Every encoding (packed or flat, any format) as the term's flat arrays: index 0 is its first.
      const flat = readTermPostings(f, oldOrd);
      const end = flat.docs.length;
      // Positions of this term's postings start after all earlier postings' positions.
      let pos = positions && f.blockPosStart && f.blockStart ? f.blockPosStart[f.blockStart[oldOrd]] : 0;
      for (let i = 0; i < end; i++) {
        const freq = flat.freqs ? flat.freqs[i] : 1;
        const nd = map[flat.docs[i]];
        if (nd >= 0) {
          docs.push(nd);
          if (freqs) freqs.push(freq);
          if (positions && f.positions) for (let k = 0; k < freq; k++) positions.push(f.positions[pos + k]);
        }
        pos += freq;
      }
    }
    if (docs.length === postingsStart[t]) emptied = true;
  }
  postingsStart[unionCount] = docs.length;

  let terms: StringTable = union.terms;
  let termCount = unionCount;
  let finalStart = postingsStart;
  let finalOrdMaps = ordMaps;
  let kept: number[] | null = null;
  if (emptied) {
    // Terms whose every posting was deleted disappear, as in a Lucene merge.
    const keep: number[] = (kept = []);
    for (let t = 0; t < unionCount; t++) if (postingsStart[t + 1] > postingsStart[t] || !first.indexed) keep.push(t);
    const remap = new Int32Array(unionCount).fill(-1);
    keep.forEach((t, i) => (remap[t] = i));
    terms = selectStrings(union.terms, keep);
    termCount = keep.length;
    finalStart = new Uint32Array(keep.length + 1);
    keep.forEach((t, i) => (finalStart[i] = postingsStart[t]));
    finalStart[keep.length] = docs.length;
    finalOrdMaps = ordMaps.map((m) => Int32Array.from(m, (o) => remap[o]));
  }

  let docValueOffsets: Uint32Array | null = null;
  let docValueOrds: Uint32Array | null = null;
  if (first.hasDocValues) {
    docValueOffsets = new Uint32Array(maxDoc + 1);
    const ords = new GrowableUint32(1024);
    let nd = 0;
    parts.forEach(({ s, f }, p) => {
      while (nd < firstNewDoc(docMaps, s)) docValueOffsets![++nd] = ords.length;
      const map = docMaps[s];
      for (let d = 0; d < map.length; d++) {
        if (map[d] < 0) continue;
        // Old ordinals ascending map to new ordinals ascending (both are code-point order).
        for (let i = f.docValueOffsets![d]; i < f.docValueOffsets![d + 1]; i++) ords.push(finalOrdMaps[p][f.docValueOrds![i]]);
        docValueOffsets![++nd] = ords.length;
      }
    });
    while (nd < maxDoc) docValueOffsets[++nd] = ords.length;
    docValueOrds = ords.toArray();
  }
  if (!first.hasNorms) norms = null;
  return {
    name, type: first.type, structure: first.structure, indexed: first.indexed, terms, termCount,
    postingsStart: finalStart, docs: docs.toArray(), freqs: freqs ? freqs.toArray() : null,
    positions: positions ? positions.toArray() : null, norms, docsWithField, docValueOffsets,
    docValueNumbers: null, docValueOrds,
    completion: first.structure === 'completion' ? mergeCompletionEntries(parts.map(({ s, f }) => ({ segment: sources[s].segment, field: f, docMap: docMaps[s] })), union, kept) : undefined,
  };
}

/** The new doc id of segment s's first live document (= count of live docs before it). */
function firstNewDoc(docMaps: Int32Array[], s: number): number {
  let n = 0;
  for (let i = 0; i < s; i++) for (const v of docMaps[i]) if (v >= 0) n++;
  return n;
}
