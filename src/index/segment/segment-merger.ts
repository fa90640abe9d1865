/**
 * Existing segments → one segment (Lucene's SegmentMerger): documents keep their order
 * (segments are merged in order, so write order and tie-breaking survive), deleted documents are
 * dropped, term dictionaries are unioned in code-point order, postings/positions/norms/doc values
 * are copied with remapped doc ids, and keyword ordinals are renumbered.
 *
 * `writeMergedSegment` writes each merged field into the new segment's buffer before merging the
 * next (AppendingSectionWriter), so a merge holds its sources, the segment written so far and one
 * field's arrays — not every merged array plus a final copy (issue 22: at 1M docs the force-merge
 * took RSS from ~1 GB to 2.3 GB); its postings are streamed per term, never held as whole arrays.
 * `mergeSegments` gives the same content as a SegmentInput.
 */
import { compareCodePoints, encodeStrings, type StringTable } from './bytes.js';
import { GrowableFloat64, GrowableUint32 } from './growable.js';
import { BLOCK_SIZE, NO_FIELD, Section, type SegmentFieldInfo } from './format.js';
import { bitsetWords, getBit, isLive, setBit, type LiveDocs } from './live-docs.js';
import { AppendingSectionWriter } from './sab-layout.js';
import type { FieldInput, SegmentInput } from './segment-input.js';
import { readId, readSourceBytes, type Segment, type SegmentField } from './segment-reader.js';
import { addFieldTail, addPostingsSections, addTermSections, DOC_NUMBER_SECTIONS, fieldInfo, writeField, writeIdSections, writeStoredFields, type DocColumns } from './segment-writer.js';
import { packDocNumbers } from './doc-numbers.js';
import { StreamedPostings, WholeFieldPostings, type TermPostingsSink } from './merged-postings.js';
import type { IndexCodec } from './source-codec.js';
import { encodeStoredFields, type BlockWriteThrough, type StoredFieldsSections } from './stored-fields.js';
import { mergeCompletionEntries } from './completion-merge.js';
import { forEachTermBlock } from './term-postings.js';
import { selectStrings, unionTerms } from './term-union.js';
import { mergeVectors } from './vector-sections.js';

const EMPTY_BYTES = new Uint8Array(0);
const EMPTY_OFFSETS = new Uint32Array(1);

export interface MergeSource {
  readonly segment: Segment;
  readonly liveDocs: LiveDocs;
}

interface MergePlan {
  readonly sources: readonly MergeSource[];
  /** Per source: old doc → new doc, or -1 when deleted. */
  readonly docMaps: readonly Int32Array[];
  /** Per source: the new doc id of its first live doc. */
  readonly firstNewDoc: readonly number[];
  readonly maxDoc: number;
  readonly fieldNames: readonly string[];
}

function planMerge(sources: readonly MergeSource[]): MergePlan {
  const docMaps: Int32Array[] = [];
  const firstNewDoc: number[] = [];
  let maxDoc = 0;
  for (const { segment, liveDocs } of sources) {
    firstNewDoc.push(maxDoc);
    const map = new Int32Array(segment.maxDoc);
    for (let d = 0; d < segment.maxDoc; d++) map[d] = isLive(liveDocs, d) ? maxDoc++ : -1;
    docMaps.push(map);
  }
  const names = new Set<string>();
  for (const { segment } of sources) for (const name of segment.fields.keys()) names.add(name);
  return { sources, docMaps, firstNewDoc, maxDoc, fieldNames: [...names].sort(compareCodePoints) };
}

/** Calls `visit(newDoc, source, oldDoc)` for every live document, in new-doc order. */
function forEachLiveDoc(plan: MergePlan, visit: (nd: number, s: number, d: number) => void): void {
  plan.docMaps.forEach((map, s) => {
    for (let d = 0; d < map.length; d++) if (map[d] >= 0) visit(map[d], s, d);
  });
}

export function mergeSegments(sources: readonly MergeSource[], codec: IndexCodec = 'default'): SegmentInput {
  const plan = planMerge(sources);
  return {
    maxDoc: plan.maxDoc,
    ...mergeDocColumns(plan),
    sources: mergeStoredFields(plan, codec),
    fields: plan.fieldNames.map((name) => mergeField(name, plan)),
  };
}

/**
 * Merges `sources` straight into a new segment buffer, one field at a time; `afterField` runs once
 * each field's arrays are garbage (the merge worker collects them there).
 */
export function writeMergedSegment(sources: readonly MergeSource[], codec: IndexCodec = 'default', afterField: () => void = () => undefined): { sab: SharedArrayBuffer; maxDoc: number } {
  const plan = planMerge(sources);
  let expectedBytes = 0;
  for (const { segment } of sources) expectedBytes += segment.sab.byteLength;
  // Room for the header: ≤ 32 sections per field (format.ts has fewer kinds), and the field
  // infos' JSON (names plus ~300 bytes of keys and numbers each).
  let infoBytes = 64;
  for (const name of plan.fieldNames) infoBytes += 400 + 3 * name.length;
  const w = new AppendingSectionWriter(expectedBytes * 1.125 + (1 << 20), 16 + 32 * plan.fieldNames.length, infoBytes);
  // Fields first: the biggest transient arrays (a text field's postings and positions) come
  // while the new segment is still small.
  const fields: SegmentFieldInfo[] = [];
  for (let ord = 0; ord < plan.fieldNames.length; ord++) {
    fields.push(writeMergedField(w, ord, plan));
    afterField();
  }
  // Stored sources (the largest section) go straight into the segment as they are encoded.
  const blocks = w.open(Section.SourceBlocks, NO_FIELD);
  const stored = mergeStoredFields(plan, codec, blocks.write);
  blocks.close();
  writeStoredFields(w, stored, true);
  writeMergedDocColumns(w, plan);
  return { sab: w.finish({ maxDoc: plan.maxDoc, fields }), maxDoc: plan.maxDoc };
}

/**
 * One field merged and written. An indexed field's postings are encoded term by term straight into
 * its PostingPacked section (merged-postings.ts): no whole-field docs and freqs (at 1M short docs
 * the text field's were two u32 arrays of ~100 MB each, at the force-merge's peak). Its own frame:
 * what it merged (positions, norms, doc values) must be unreachable when `afterField` collects, and
 * a reference the caller's frame still held (an interpreter register keeps a call's argument) pinned
 * the last field's arrays through the stored-fields phase, whose allocations only start scavenges.
 */
function writeMergedField(w: AppendingSectionWriter, ord: number, plan: MergePlan): SegmentFieldInfo {
  const name = plan.fieldNames[ord];
  const first = plan.sources.map(({ segment }) => segment.fields.get(name)).find((f) => f !== undefined)!.info;
  // Indexed terms' postings are streamed into the segment (feature postings keep their own encoder).
  if (first.structure === 'numeric' || first.structure === 'features' || first.structure === 'vector' || !first.indexed) return writeField(w, ord, mergeField(name, plan), plan.maxDoc);
  const packed = w.open(Section.PostingPacked, ord);
  const f = mergeField(name, plan, (terms, blocksBound, norms) => new StreamedPostings(packed.write, terms, blocksBound, norms, first.hasPositions, first.hasFreqs, plan.maxDoc));
  const postings = f.sink!;
  const { sections, blockOffsets } = postings.finish(f.postingsStart!, f.termCount, f.kept, f.positions);
  packed.close();
  addTermSections(w, ord, f.terms!, f.termCount);
  addPostingsSections(w, ord, sections, blockOffsets, null);
  addFieldTail(w, ord, f);
  return fieldInfo(f, {
    indexed: true, hasFreqs: first.hasFreqs, hasPositions: f.positions !== null, termCount: f.termCount,
    docCount: postings.docCount, sumTotalTermFreq: postings.sumTotalTermFreq, sumDocFreq: postings.postings,
  });
}

function mergeDocColumns(plan: MergePlan): DocColumns {
  const ids: string[] = new Array<string>(plan.maxDoc);
  const seqNo = new Float64Array(plan.maxDoc);
  const version = new Float64Array(plan.maxDoc);
  const indexOrder = new Float64Array(plan.maxDoc);
  forEachLiveDoc(plan, (nd, s, d) => {
    const segment = plan.sources[s].segment;
    ids[nd] = readId(segment, d);
    seqNo[nd] = segment.seqNo.get(d);
    version[nd] = segment.version.get(d);
    indexOrder[nd] = segment.indexOrder.get(d);
  });
  return { ids: encodeStrings(ids), seqNo, version, indexOrder };
}

/**
 * writeDocColumns for a merge, with less held at once: mergeDocColumns made every `_id` a JS string
 * (1M of them in the merging thread's heap) and all three doc-number columns (8 bytes a doc each)
 * before writing any, at the end of a force-merge, next to the nearly complete segment (issue 22).
 * The ids' bytes are copied from the sources as they are (what encodeStrings of the decoded ids
 * gives), and one column array serves the three doc-number sections in turn.
 */
function writeMergedDocColumns(w: AppendingSectionWriter, plan: MergePlan): void {
  writeIdSections(w, plan.maxDoc, mergeIdBytes(plan));
  const column = new Float64Array(plan.maxDoc);
  const read = [(s: Segment) => s.seqNo, (s: Segment) => s.version, (s: Segment) => s.indexOrder];
  DOC_NUMBER_SECTIONS.forEach((kind, i) => {
    forEachLiveDoc(plan, (nd, s, d) => {
      column[nd] = read[i](plan.sources[s].segment).get(d);
    });
    w.add(kind, NO_FIELD, packDocNumbers(column));
  });
}

/** The merged `_id` table, copied from the sources' id bytes. */
function mergeIdBytes(plan: MergePlan): StringTable {
  let total = 0;
  forEachLiveDoc(plan, (_nd, s, d) => {
    const ids = plan.sources[s].segment.ids;
    total += ids.start(d + 1) - ids.start(d);
  });
  const bytes = new Uint8Array(total);
  const offsets = new Uint32Array(plan.maxDoc + 1);
  let pos = 0;
  forEachLiveDoc(plan, (nd, s, d) => {
    const ids = plan.sources[s].segment.ids;
    const src = ids.bytes;
    const end = ids.start(d + 1);
    offsets[nd] = pos;
    for (let b = ids.start(d); b < end; b++) bytes[pos++] = src[b]; // ids are short: no subarray per doc
  });
  offsets[plan.maxDoc] = pos;
  return { bytes, offsets };
}

/** Stored sources are copied as bytes, block by block (never decoded to strings); `output` as in encodeStoredFields. */
function mergeStoredFields(plan: MergePlan, codec: IndexCodec, output?: BlockWriteThrough): StoredFieldsSections {
  const fromSource = new Uint32Array(plan.maxDoc);
  const fromDoc = new Uint32Array(plan.maxDoc);
  forEachLiveDoc(plan, (nd, s, d) => {
    fromSource[nd] = s;
    fromDoc[nd] = d;
  });
  return encodeStoredFields(plan.maxDoc, (nd) => readSourceBytes(plan.sources[fromSource[nd]].segment, fromDoc[nd]), codec, output);
}

/** An array of the narrowest width that holds every source's positions. */
function positionsArray(parts: ReadonlyArray<{ f: SegmentField }>, length: number): Uint8Array | Uint16Array | Uint32Array {
  let bytes = 1;
  for (const { f } of parts) if (f.positions) bytes = Math.max(bytes, f.positions.BYTES_PER_ELEMENT);
  return bytes === 1 ? new Uint8Array(length) : bytes === 2 ? new Uint16Array(length) : new Uint32Array(length);
}

/**
 * A merged field with the sink its postings went to; `kept`: the union's terms that kept postings,
 * when some lost all theirs to deletes.
 */
type MergedField<S> = FieldInput & { readonly sink: S | null; readonly kept: readonly number[] | null };

type SinkFactory<S extends TermPostingsSink> = (terms: number, blocksBound: number, norms: Uint8Array | null) => S;

const wholeField = (hasFreqs: boolean, bound: number) => new WholeFieldPostings(bound, hasFreqs);

/**
 * Merges one field. Its postings go to the sink `sinkFor` makes (once the union's term count, a
 * bound on the blocks and the merged norms are known); without one, into whole arrays (`docs`, `freqs`).
 */
function mergeField<S extends TermPostingsSink = WholeFieldPostings>(name: string, plan: MergePlan, sinkFor?: SinkFactory<S>): MergedField<S> {
  const { sources, docMaps, maxDoc } = plan;
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
  if (first.structure === 'vector') {
    return {
      name, type: first.type, structure: 'vector', indexed: first.indexed, terms: null, termCount: 0, postingsStart: null,
      docs: null, freqs: null, positions: null, norms: null, docsWithField, docValueOffsets: null, docValueNumbers: null,
      docValueOrds: null, sink: null, kept: null, vectors: mergeVectors(parts.map(({ s, f }) => ({ field: f, docMap: docMaps[s] })), maxDoc),
    };
  }
  if (first.structure === 'numeric') {
    const offsets = new Uint32Array(maxDoc + 1);
    const numbers = new GrowableFloat64();
    let nd = 0;
    for (const { s, f } of parts) {
      // Segments without the field contribute empty ranges for their docs.
      while (nd < plan.firstNewDoc[s]) offsets[++nd] = numbers.length;
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
      docValueNumbers: numbers.toArray(), docValueOrds: null, sink: null, kept: null,
    };
  }

  // Union of the term dictionaries, with each segment's old ordinal → new ordinal.
  const union = unionTerms(parts.map(({ f }) => ({
    bytes: f.termBytes ?? EMPTY_BYTES, offsets: f.termOffsets ?? EMPTY_OFFSETS, count: f.termBytes ? f.info.termCount : 0,
  })));
  const { termCount: unionCount, ordMaps, entryStart, entryPart, entryOldOrd } = union;

  // Postings: for each new term, each segment's postings in segment order (doc ids stay ascending),
  // gathered in one term's arrays and handed to the sink. The sources' counts bound the merged ones.
  const postingsStart = new Uint32Array(unionCount + 1);
  let postingsBound = 0;
  let positionsBound = 0;
  let blocksBound = 0;
  for (const { f } of parts) {
    const count = f.docs ? f.docs.length : f.postingsStart ? f.postingsStart[f.info.termCount] : 0;
    postingsBound += count;
    blocksBound += f.blockStart ? f.blockStart[f.info.termCount] : count;
    positionsBound += f.positions ? f.positions.length : 0;
  }
  const positions = first.hasPositions ? positionsArray(parts, positionsBound) : null;
  const sink: TermPostingsSink = sinkFor ? sinkFor(unionCount, blocksBound, norms) : wholeField(first.hasFreqs, postingsBound);
  let termDocs: Uint32Array = new Uint32Array(BLOCK_SIZE);
  let termFreqs: Uint32Array | null = first.hasFreqs ? new Uint32Array(BLOCK_SIZE) : null;
  let n = 0;
  let np = 0;
  let emptied = false;
  for (let t = 0; t < unionCount; t++) {
    postingsStart[t] = n;
    let c = 0;
    for (let e = entryStart[t]; e < entryStart[t + 1]; e++) {
      const oldOrd = entryOldOrd[e];
      const { s, f } = parts[entryPart[e]];
      if (!f.postingsStart) continue;
      const map = docMaps[s];
      const oldPositions = positions ? f.positions : null;
      // Positions of this term's postings start after all earlier postings' positions.
      let pos = oldPositions && f.blockPosStart && f.blockStart ? f.blockPosStart[f.blockStart[oldOrd]] : 0;
      forEachTermBlock(f, oldOrd, (blockDocs, count, blockFreqs) => {
        if (c + count > termDocs.length) {
          termDocs = grown(termDocs, c + count);
          if (termFreqs) termFreqs = grown(termFreqs, c + count);
        }
        for (let i = 0; i < count; i++) {
          const freq = blockFreqs ? blockFreqs[i] : 1;
          const nd = map[blockDocs[i]];
          if (nd >= 0) {
            termDocs[c] = nd;
            if (termFreqs) termFreqs[c] = freq;
            c++;
            if (positions && oldPositions) for (let k = 0; k < freq; k++) positions[np++] = oldPositions[pos + k];
          }
          pos += freq;
        }
      });
    }
    if (c === 0) emptied = true;
    else sink.term(t, termDocs, termFreqs, c);
    n += c;
  }
  postingsStart[unionCount] = n;

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
    finalStart[keep.length] = n;
    finalOrdMaps = ordMaps.map((m) => Int32Array.from(m, (o) => remap[o]));
  }

  let docValueOffsets: Uint32Array | null = null;
  let docValueOrds: Uint32Array | null = null;
  if (first.hasDocValues) {
    docValueOffsets = new Uint32Array(maxDoc + 1);
    const ords = new GrowableUint32(1024);
    let nd = 0;
    parts.forEach(({ s, f }, p) => {
      while (nd < plan.firstNewDoc[s]) docValueOffsets![++nd] = ords.length;
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
    postingsStart: finalStart, docs: sink instanceof WholeFieldPostings ? sink.docs.subarray(0, n) : null,
    freqs: sink instanceof WholeFieldPostings && sink.freqs ? sink.freqs.subarray(0, n) : null,
    positions: positions ? positions.subarray(0, np) : null, norms, docsWithField, docValueOffsets,
    docValueNumbers: null, docValueOrds,
    completion: first.structure === 'completion' ? mergeCompletionEntries(parts.map(({ s, f }) => ({ segment: sources[s].segment, field: f, docMap: docMaps[s] })), union, kept) : undefined,
    sink: sinkFor ? (sink as S) : null, kept,
  };
}

/** `a` moved into an array of at least `length` (doubling). */
function grown(a: Uint32Array, length: number): Uint32Array {
  const next = new Uint32Array(Math.max(length, a.length * 2));
  next.set(a);
  return next;
}
