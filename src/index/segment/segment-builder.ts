/**
 * New documents → SegmentInput (Lucene's IndexingChain in miniature): each document's `_source`
 * is parsed with the index mapping, text values are analysed into postings with frequencies,
 * positions and norms, keyword values become terms + sorted-set doc values, numbers/dates/booleans
 * become numeric doc values (points are derived by the writer).
 *
 * Runs in a worker at refresh. Documents are added in the order they were written, so doc ids
 * follow write order (the shard's tie-break order).
 */
import { Buffer } from 'node:buffer';
import type { Analyzer, Normalizer } from '../../analysis/index.js';
import { filterSource } from '../../common/source-filter.js';
import { DocumentParser, type DocumentParseLimits } from '../mapping/document-parser.js';
import { indexAnalyzerFor, normalizerOf } from '../mapping/field-analyzers.js';
import type { ResolvedField, RootMapping } from '../mapping/types.js';
import type { IndexableValue } from '../mapping/field-values.js';
import { FeatureRef, type FeatureValue } from '../mapping/feature-values.js';
import { featureSourceParser, type SourceParser } from '../mapping/feature-source.js';
import type { CompletionValue } from '../mapping/completion-values.js';
import { completionAnalysis } from '../mapping/completion-form.js';
import { resolveMapping } from '../mapping/resolve.js';
import { DEFAULT_TEXT_SETTINGS, type IndexTextSettings } from '../text-analysis.js';
import { encodeFeatureWeight } from './feature-weights.js';
import { compareCodePoints, encodeStrings } from './bytes.js';
import type { FieldStructure } from './format.js';
import { GrowableFloat64, GrowableNarrow, GrowableUint32 } from './growable.js';
import { releaseScratch, scratchInt32, scratchUint16, scratchUint32, scratchUint8 } from './scratch-pool.js';
import { TermHash } from './term-hash.js';
import { TokenHash } from './token-hash.js';
import { bitsetWords, setBit } from './live-docs.js';
import { intToByte4 } from './norms.js';
import type { FieldInput, SegmentInput } from './segment-input.js';
import type { IndexCodec } from './source-codec.js';
import { encodeStoredFields, type StoredFieldsSections } from './stored-fields.js';
import type { DenseVector } from '../mapping/vector-values.js';
import { flatVectors } from './vector-sections.js';

export interface BuildDocument {
  readonly id: string;
  /** The `_source` JSON as the client sent it. */
  readonly source: string;
  readonly seqNo: number;
  readonly version: number;
  readonly indexOrder: number;
}

abstract class FieldAccumulator {
  readonly docsWithField: GrowableUint32 = new GrowableUint32();
  private lastDoc = -1;
  constructor(readonly field: ResolvedField) {}
  markDoc(doc: number): void {
    if (doc !== this.lastDoc) {
      this.docsWithField.push(doc);
      this.lastDoc = doc;
      this.startDoc();
    }
  }
  /** A document's first value in this field (after docsWithField has it). */
  protected startDoc(): void {}
  abstract add(doc: number, value: IndexableValue): void;
  abstract finishDoc(doc: number): void;
  abstract build(maxDoc: number): FieldInput;
  protected bitset(maxDoc: number): Uint32Array {
    const bits = new Uint32Array(bitsetWords(maxDoc));
    for (let i = 0; i < this.docsWithField.length; i++) setBit(bits, this.docsWithField.data[i]);
    return bits;
  }
}

/**
 * Shared term dictionary logic for text and keyword fields, inverted the way Lucene's indexing
 * chain avoids per-term objects: every token appends a (term, position) event to one growable
 * log; `buildTerms` counting-sorts the log by sorted term ordinal, which yields CSR postings with
 * docs ascending and positions in order. Events are appended in doc order, so a doc's are one run
 * of the log: where each doc's run starts is kept per doc (docEventStart, beside docsWithField),
 * not a doc per event (that was a u32 per token, ~2 MB per 16k short docs; issue 22).
 */
abstract class TermsAccumulator extends FieldAccumulator {
  protected readonly termIds = new TermHash();
  protected readonly termList: string[] = this.termIds.terms;
  protected readonly eventTerms = new GrowableUint32(1024);
  /** docsWithField[i]'s events are eventTerms[docEventStart[i], docEventStart[i + 1]) (the last run ends at eventTerms.length). */
  protected readonly docEventStart = new GrowableUint32();
  /** Each event's position, in the narrowest type that holds them all. */
  private readonly eventPositions: GrowableNarrow | null;
  /** Feature fields: each event's frequency is given (the encoded weight), never counted. */
  protected readonly eventFreqs: GrowableUint32 | null;
  constructor(field: ResolvedField, withPositions: boolean, withGivenFreqs = false) {
    super(field);
    this.eventPositions = withPositions ? new GrowableNarrow(1024) : null;
    this.eventFreqs = withGivenFreqs ? new GrowableUint32(1024) : null;
  }
  /** The raw-token hash in front of the term hash, if any: given back with it (see buildTerms). */
  protected releaseTokens(): void {}
  /** Gives the event logs back to the scope's pool (a build's later phases reuse them); `buildTerms` does unless told to keep them. */
  protected releaseEvents(): void {
    this.eventTerms.release();
    this.docEventStart.release();
  }
  protected override startDoc(): void {
    this.docEventStart.push(this.eventTerms.length);
  }
  protected addToken(doc: number, term: string, position: number): void {
    this.addTermId(doc, this.termIds.add(term), position);
  }
  protected addTermId(doc: number, termId: number, position: number): void {
    this.eventTerms.push(termId);
    if (this.eventPositions) this.eventPositions.push(position);
  }
  /**
   * Sorted terms and CSR postings (+ the term id → sorted ordinal map, for doc values; + with
   * `withEventOrder`, each term's events in doc order: slots [eventStart[t], eventStart[t + 1]) of
   * eventOrder hold event indexes, for per-event data such as completion entries).
   *
   * Each phase's arrays go back to the scope's pool as soon as it is over, so the later phases and
   * the writer reuse them rather than adding to the build's peak (issue 22): the hashes once the
   * terms are sorted, the event logs once they are placed (the term-id log and the docs' runs only
   * with `keepEvents` false: doc values and completion entries read them after, then release them).
   * So a field builds once.
   */
  protected buildTerms(structure: FieldStructure, withFreqs: boolean, withEventOrder = false, keepEvents = false): {
    input: Omit<FieldInput, 'norms' | 'docsWithField' | 'docValueOffsets' | 'docValueNumbers' | 'docValueOrds'>; sorted: string[]; ordOf: Uint32Array;
    eventStart: Uint32Array; eventOrder: Uint32Array | null;
  } {
    const termCount = this.termList.length;
    this.releaseTokens();
    this.termIds.releaseSlots();
    const sortedIds = this.termIds.sortedIds();
    const ordOf = scratchUint32(termCount, false);
    const sorted = sortedTerms(this.termList, sortedIds, ordOf);
    releaseScratch(sortedIds);

    // Counting sort of the events by term ordinal, straight into the CSR arrays (stable: events
    // come in doc order, so a term's docs ascend and its positions stay in order). The first pass
    // counts each term's events and postings (its distinct docs), the second places them.
    const events = this.eventTerms.length;
    const evTerms = this.eventTerms.data;
    // Each doc's run of events: runDocs[r]'s are [runStart[r], runStart[r + 1]).
    const runs = this.docsWithField.length;
    const runDocs = this.docsWithField.data;
    this.docEventStart.push(events);
    const runStart = this.docEventStart.data;
    const evPositions = this.eventPositions ? this.eventPositions.data : null;
    const evFreqs = this.eventFreqs ? this.eventFreqs.data : null;
    const eventStart = scratchUint32(termCount + 1);
    const postingsStart = scratchUint32(termCount + 1);
    const lastDoc = scratchInt32(termCount, false).fill(-1);
    countTermEvents(evTerms, runDocs, runStart, runs, ordOf, eventStart, postingsStart, lastDoc);
    prefixSums(eventStart, postingsStart, termCount);
    const postings = postingsStart[termCount];
    const docs = scratchUint32(postings, false);
    const freqs = withFreqs ? scratchUint32(postings, false) : null;
    const positions = evPositions ? sameType(evPositions, events) : null;
    const eventOrder = withEventOrder ? scratchUint32(events, false) : null;
    const eventCursor = scratchUint32(termCount, false);
    eventCursor.set(eventStart.subarray(0, termCount));
    // One past each term's last posting so far.
    const postingEnd = scratchUint32(termCount, false);
    postingEnd.set(postingsStart.subarray(0, termCount));
    lastDoc.fill(-1);
    placeTermEvents({ evTerms, runDocs, runStart, runs, evPositions, evFreqs, ordOf, eventCursor, postingEnd, lastDoc, docs, freqs, positions, eventOrder });
    releaseScratch(eventCursor);
    releaseScratch(postingEnd);
    releaseScratch(lastDoc);
    this.eventPositions?.release();
    this.eventFreqs?.release();
    if (!keepEvents) this.releaseEvents();
    return {
      input: {
        name: this.field.path, type: this.field.type, structure, indexed: this.field.indexed, terms: encodeStrings(sorted),
        termCount, postingsStart, docs, freqs, positions,
      },
      sorted,
      ordOf,
      eventStart,
      eventOrder,
    };
  }
}

// buildTerms' loops, each its own function: a build runs them once, so V8 optimizes them on the fly
// (OSR) in every fresh build worker. Inside one long method each OSR compile took the whole method
// (100-400 ms of TurboFan on a loaded machine, 6-15 of them per worker in a 100k-doc load) and
// deoptimized again in the code after its loop, which had no type feedback yet (issue 19).

/** The terms in sorted order, and each term id's sorted ordinal. */
function sortedTerms(termList: readonly string[], sortedIds: Uint32Array, ordOf: Uint32Array): string[] {
  const sorted: string[] = []; // packed, not a holey array of its final size
  for (let o = 0; o < sortedIds.length; o++) {
    const id = sortedIds[o];
    ordOf[id] = o;
    sorted.push(termList[id]);
  }
  return sorted;
}

/**
 * The CSR positions in the type of the event log's, the narrowest that holds them all, as the
 * writer stores them (short docs' positions fit a byte): the writer takes a narrow array as it is,
 * so neither a u32 array of all the segment's positions nor the writer's narrowed copy of it is
 * made (issue 22).
 */
function sameType(log: Uint8Array | Uint16Array | Uint32Array, n: number): Uint8Array | Uint16Array | Uint32Array {
  return log instanceof Uint8Array ? scratchUint8(n, false) : log instanceof Uint16Array ? scratchUint16(n, false) : scratchUint32(n, false);
}

/** Per ordinal (at o + 1): its events and its postings (distinct docs). */
function countTermEvents(
  evTerms: Uint32Array, runDocs: Uint32Array, runStart: Uint32Array, runs: number, ordOf: Uint32Array, eventStart: Uint32Array, postingsStart: Uint32Array, lastDoc: Int32Array,
): void {
  for (let r = 0; r < runs; r++) {
    const d = runDocs[r];
    for (let e = runStart[r], end = runStart[r + 1]; e < end; e++) {
      const o = ordOf[evTerms[e]];
      eventStart[o + 1]++;
      if (lastDoc[o] !== d) {
        lastDoc[o] = d;
        postingsStart[o + 1]++;
      }
    }
  }
}

function prefixSums(eventStart: Uint32Array, postingsStart: Uint32Array, termCount: number): void {
  for (let t = 0; t < termCount; t++) {
    eventStart[t + 1] += eventStart[t];
    postingsStart[t + 1] += postingsStart[t];
  }
}

interface EventPlacement {
  readonly evTerms: Uint32Array;
  readonly runDocs: Uint32Array;
  readonly runStart: Uint32Array;
  readonly runs: number;
  readonly evPositions: Uint8Array | Uint16Array | Uint32Array | null;
  readonly evFreqs: Uint32Array | null;
  readonly ordOf: Uint32Array;
  readonly eventCursor: Uint32Array;
  readonly postingEnd: Uint32Array;
  readonly lastDoc: Int32Array;
  readonly docs: Uint32Array;
  readonly freqs: Uint32Array | null;
  readonly positions: Uint8Array | Uint16Array | Uint32Array | null;
  readonly eventOrder: Uint32Array | null;
}

/** The counting sort's second pass: each event to its term's next slot, docs and freqs per posting. */
function placeTermEvents(p: EventPlacement): void {
  const { evTerms, runDocs, runStart, runs, evPositions, evFreqs, ordOf, eventCursor, postingEnd, lastDoc, docs, freqs, positions, eventOrder } = p;
  for (let r = 0; r < runs; r++) {
    const d = runDocs[r];
    for (let e = runStart[r], end = runStart[r + 1]; e < end; e++) {
      const o = ordOf[evTerms[e]];
      const slot = eventCursor[o]++;
      if (positions) positions[slot] = evPositions![e];
      if (eventOrder) eventOrder[slot] = e;
      if (lastDoc[o] !== d) {
        lastDoc[o] = d;
        const at = postingEnd[o]++;
        docs[at] = d;
        // A feature occurs once per doc (the document parser rejects repeats): its freq is given.
        if (freqs) freqs[at] = evFreqs ? evFreqs[e] : 1;
      } else if (freqs) {
        freqs[postingEnd[o] - 1]++;
      }
    }
  }
}

class TextAccumulator extends TermsAccumulator {
  private readonly analyzer: Analyzer;
  /** BM25's discount_overlaps: tokens stacked on the previous position (synonyms) do not count in the length. */
  private readonly discountOverlaps: boolean;
  private lastPosition = -1;
  private length = 0;
  private nextPosition = 0;
  private norms: Uint8Array = new Uint8Array(64);
  private currentDoc = -1;
  /** Raw token → term id, when the analyzer can index that way (analyzeInterned). */
  private readonly tokens: TokenHash | null;
  private readonly onTerm: (term: string, position: number) => void;
  private readonly onTermId: (termId: number, position: number) => void;
  constructor(field: ResolvedField) {
    super(field, true);
    this.analyzer = indexAnalyzerFor(field);
    this.discountOverlaps = field.similarity.type !== 'BM25' || field.similarity.discountOverlaps;
    this.tokens = this.analyzer.analyzeInterned ? new TokenHash(this.termIds) : null;
    // Bound once: a closure per value would be garbage per document.
    this.onTerm = (term, position) => this.onTermId(this.termIds.add(term), position);
    this.onTermId = (termId, position) => {
      this.addTermId(this.currentDoc, termId, position);
      if (!this.discountOverlaps || position !== this.lastPosition) this.length++;
      this.lastPosition = position;
    };
  }
  add(doc: number, value: IndexableValue): void {
    this.markDoc(doc);
    if (doc !== this.currentDoc) {
      this.currentDoc = doc;
      this.length = 0;
      this.nextPosition = 0;
    } else {
      this.nextPosition += this.field.positionIncrementGap;
    }
    this.lastPosition = -1;
    const text = String(value);
    this.nextPosition = this.tokens !== null
      ? this.analyzer.analyzeInterned!(text, this.tokens, this.onTermId, this.nextPosition)
      : this.analyzer.analyze(text, this.onTerm, this.nextPosition);
  }
  protected override releaseTokens(): void {
    this.tokens?.release();
  }
  finishDoc(doc: number): void {
    if (this.currentDoc !== doc) return;
    if (doc >= this.norms.length) {
      const next = new Uint8Array(Math.max(doc + 1, this.norms.length * 2));
      next.set(this.norms);
      this.norms = next;
    }
    this.norms[doc] = this.field.norms ? intToByte4(this.length) : 0;
  }
  build(maxDoc: number): FieldInput {
    const { input } = this.buildTerms('text', true);
    const norms = new Uint8Array(maxDoc);
    norms.set(this.norms.subarray(0, Math.min(maxDoc, this.norms.length)));
    return { ...input, norms: this.field.norms ? norms : null, docsWithField: this.bitset(maxDoc), docValueOffsets: null, docValueNumbers: null, docValueOrds: null };
  }
}

/**
 * sparse_vector / rank_features: each feature is a term with one posting per document whose freq
 * is the encoded weight (Lucene FeatureField), no positions, no norms.
 */
class FeaturesAccumulator extends TermsAccumulator {
  /** Names read from the source text (FeatureRef) → term ids, without a string per occurrence. */
  private readonly names = new TokenHash(this.termIds);
  constructor(field: ResolvedField) {
    super(field, false, true);
  }
  add(doc: number, value: IndexableValue): void {
    this.markDoc(doc);
    if (value instanceof FeatureRef) {
      this.addTermId(doc, this.names.intern(value.text, value.start, value.end, keepName)!, 0);
      this.eventFreqs!.push(encodeFeatureWeight(value.weight));
      return;
    }
    const { feature, weight } = value as FeatureValue;
    this.addToken(doc, feature, 0);
    this.eventFreqs!.push(encodeFeatureWeight(weight));
  }
  protected override releaseTokens(): void {
    this.names.release();
  }
  finishDoc(): void {}
  build(maxDoc: number): FieldInput {
    const { input } = this.buildTerms('features', true);
    return { ...input, norms: null, docsWithField: this.bitset(maxDoc), docValueOffsets: null, docValueNumbers: null, docValueOrds: null };
  }
}

/** A feature name is its term as written. */
const keepName = (name: string): string => name;

class KeywordAccumulator extends TermsAccumulator {
  private readonly normalizer: Normalizer | null;
  constructor(field: ResolvedField) {
    super(field, false);
    this.normalizer = normalizerOf(field);
  }
  add(doc: number, value: IndexableValue): void {
    this.markDoc(doc);
    const normalizer = this.normalizer;
    this.addToken(doc, normalizer === null ? String(value) : normalizer.normalize(String(value)), 0);
  }
  finishDoc(): void {}
  build(maxDoc: number): FieldInput {
    const { input, ordOf } = this.buildTerms('keyword', false, false, this.field.docValues);
    let docValueOffsets: Uint32Array | null = null;
    let docValueOrds: Uint32Array | null = null;
    if (this.field.docValues) {
      // Sorted-set doc values: per doc, its distinct ordinals ascending. Events are in doc order.
      docValueOffsets = new Uint32Array(maxDoc + 1);
      const ords = new GrowableUint32(Math.max(16, this.eventTerms.length));
      const evTerms = this.eventTerms.data;
      // Each doc's run of events (buildTerms closed the last run).
      const runs = this.docsWithField.length;
      const runDocs = this.docsWithField.data;
      const runStart = this.docEventStart.data;
      const values: number[] = [];
      let r = 0;
      for (let d = 0; d < maxDoc; d++) {
        docValueOffsets[d] = ords.length;
        if (r >= runs || runDocs[r] !== d) continue;
        values.length = 0;
        for (let e = runStart[r], end = runStart[r + 1]; e < end; e++) values.push(ordOf[evTerms[e]]);
        r++;
        if (values.length > 1) values.sort((a, b) => a - b);
        for (let i = 0; i < values.length; i++) if (i === 0 || values[i] !== values[i - 1]) ords.push(values[i]);
      }
      docValueOffsets[maxDoc] = ords.length;
      docValueOrds = ords.toArray();
      this.releaseEvents();
    }
    return { ...input, freqs: null, norms: null, docsWithField: this.bitset(maxDoc), docValueOffsets, docValueNumbers: null, docValueOrds };
  }
}

/**
 * completion: each input's analyzed form (completion-form.ts) is a term with doc-only postings,
 * and one entry per input keeps its weight and surface form (completion-entries.ts).
 */
class CompletionAccumulator extends TermsAccumulator {
  private readonly analyze: (text: string) => string | null;
  private readonly weights = new GrowableUint32(256);
  private readonly surfaces: string[] = [];
  constructor(field: ResolvedField) {
    super(field, false);
    this.analyze = completionAnalysis(field, field.analyzer);
  }
  add(doc: number, value: IndexableValue): void {
    const { input, weight } = value as CompletionValue;
    this.markDoc(doc);
    const form = this.analyze(input);
    if (form === null) return; // no token: nothing to match (Lucene indexes no path either)
    this.addToken(doc, form, 0);
    this.weights.push(weight);
    this.surfaces.push(input);
  }
  finishDoc(): void {}
  build(maxDoc: number): FieldInput {
    const { input, eventStart, eventOrder } = this.buildTerms('completion', false, true, true);
    const order = eventOrder!;
    const n = order.length;
    const docOf = eventDocs(this.docsWithField, this.docEventStart.data, n);
    const docs = new Uint32Array(n);
    const weights = new Uint32Array(n);
    const surfaces: string[] = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const e = order[i];
      docs[i] = docOf[e];
      weights[i] = this.weights.data[e];
      surfaces[i] = this.surfaces[e];
    }
    this.releaseEvents();
    this.weights.release();
    return {
      ...input, norms: null, docsWithField: this.bitset(maxDoc), docValueOffsets: null, docValueNumbers: null, docValueOrds: null,
      completion: { entryStart: eventStart, docs, weights, surfaces: encodeStrings(surfaces) },
    };
  }
}

/** Each event's doc, from the docs' runs (runStart closed at `events`). */
function eventDocs(docsWithField: GrowableUint32, runStart: Uint32Array, events: number): Uint32Array {
  const docOf = new Uint32Array(events);
  for (let r = 0; r < docsWithField.length; r++) docOf.fill(docsWithField.data[r], runStart[r], runStart[r + 1]);
  return docOf;
}

class NumericAccumulator extends FieldAccumulator {
  private readonly docs = new GrowableUint32();
  private readonly values = new GrowableFloat64();
  add(doc: number, value: IndexableValue): void {
    this.markDoc(doc);
    this.docs.push(doc);
    this.values.push(value as number);
  }
  finishDoc(): void {}
  build(maxDoc: number): FieldInput {
    // Sorted-numeric doc values: per doc ascending (Lucene SortedNumericDocValues).
    const offsets = new Uint32Array(maxDoc + 1);
    const numbers = new Float64Array(this.values.length);
    let i = 0;
    for (let d = 0; d < maxDoc; d++) {
      offsets[d] = i;
      const start = i;
      while (i < this.docs.length && this.docs.data[i] === d) {
        numbers[i] = this.values.data[i];
        i++;
      }
      if (i - start > 1) numbers.subarray(start, i).sort();
    }
    offsets[maxDoc] = i;
    return {
      name: this.field.path, type: this.field.type, structure: 'numeric', indexed: this.field.indexed, terms: null, termCount: 0,
      postingsStart: null, docs: null, freqs: null, positions: null, norms: null, docsWithField: this.bitset(maxDoc),
      docValueOffsets: offsets, docValueNumbers: numbers, docValueOrds: null,
    };
  }
}

/** dense_vector: one vector per doc, laid flat at build (vector-sections.ts); no postings or doc values. */
class VectorAccumulator extends FieldAccumulator {
  private readonly vectors: Array<Float32Array | Int8Array> = [];
  private readonly norms = new GrowableFloat64();
  add(doc: number, value: IndexableValue): void {
    this.markDoc(doc);
    const v = value as DenseVector;
    this.vectors.push(v.values);
    this.norms.push(v.magnitude);
  }
  finishDoc(): void {}
  build(maxDoc: number): FieldInput {
    const dims = this.field.vector?.dims ?? this.vectors[0].length;
    const vectors = flatVectors(maxDoc, dims, this.docsWithField.toArray(), this.vectors, this.norms.toArray(), this.field.vector?.similarity === 'cosine');
    return {
      name: this.field.path, type: this.field.type, structure: 'vector', indexed: this.field.indexed, terms: null, termCount: 0,
      postingsStart: null, docs: null, freqs: null, positions: null, norms: null, docsWithField: this.bitset(maxDoc),
      docValueOffsets: null, docValueNumbers: null, docValueOrds: null, vectors,
    };
  }
}

function accumulatorFor(field: ResolvedField): FieldAccumulator {
  switch (field.type) {
    case 'dense_vector':
      return new VectorAccumulator(field);
    case 'text':
    case 'search_as_you_type': // the root and its shingle / prefix subfields, each with its own analyzer
      return new TextAccumulator(field);
    case 'keyword':
      return new KeywordAccumulator(field);
    case 'sparse_vector':
    case 'rank_features':
      return new FeaturesAccumulator(field);
    case 'completion':
      return new CompletionAccumulator(field);
    default:
      return new NumericAccumulator(field);
  }
}

export class SegmentBuilder {
  private readonly parser: DocumentParser;
  private readonly fields = new Map<string, FieldAccumulator>();
  private readonly touched: FieldAccumulator[] = [];
  private readonly ids: string[] = [];
  private readonly sources: string[] = [];
  private readonly seqNo = new GrowableFloat64();
  private readonly version = new GrowableFloat64();
  private readonly indexOrder = new GrowableFloat64();
  private maxDoc = 0;
  /** Reads feature objects from the source text when the mapping has feature fields. */
  private readonly parseSource: SourceParser | null;
  /** The values of the document being added (doc id maxDoc - 1), to their fields' accumulators; bound once, not a closure per document. */
  private readonly sink = (field: ResolvedField, value: IndexableValue): void => {
    const d = this.maxDoc - 1;
    let acc = this.fields.get(field.path);
    if (!acc) this.fields.set(field.path, (acc = accumulatorFor(field)));
    if (acc.docsWithField.length === 0 || acc.docsWithField.data[acc.docsWithField.length - 1] !== d) this.touched.push(acc);
    acc.add(d, value);
  };

  constructor(private readonly mapping: RootMapping, limits: DocumentParseLimits, text: IndexTextSettings = DEFAULT_TEXT_SETTINGS, private readonly codec: IndexCodec = 'default') {
    // The coordinator validated every document against this (or an older, smaller) mapping, so
    // the limits cannot trip here; pass them through anyway to run the very same code. The text
    // settings were validated when the index was created: resolving them cannot fail here.
    this.parser = new DocumentParser(mapping, limits, resolveMapping(mapping, text));
    this.parseSource = featureSourceParser(mapping);
  }

  add(doc: BuildDocument): void {
    const d = this.maxDoc++;
    const parsed = this.parseSource?.(doc.source) ?? (JSON.parse(doc.source) as Record<string, unknown>);
    this.touched.length = 0;
    this.parser.parse(parsed, doc.id, doc.source, this.sink);
    for (const acc of this.touched) acc.finishDoc(d);
    this.ids.push(doc.id);
    this.sources.push(storedSource(this.mapping, doc.source, parsed));
    this.seqNo.push(doc.seqNo);
    this.version.push(doc.version);
    this.indexOrder.push(doc.indexOrder);
  }

  get size(): number {
    return this.maxDoc;
  }

  /** The segment's input; once (the accumulators give their hashes and logs back as they build). */
  finish(): SegmentInput {
    const fields = [...this.fields.values()].sort((a, b) => compareCodePoints(a.field.path, b.field.path)).map((f) => f.build(this.maxDoc));
    return {
      maxDoc: this.maxDoc,
      ids: encodeStrings(this.ids),
      seqNo: this.seqNo.toArray(),
      version: this.version.toArray(),
      indexOrder: this.indexOrder.toArray(),
      sources: encodeSources(this.sources, this.codec),
      fields,
    };
  }
}

/**
 * The builder's sources (strings, '' = none stored) as compressed stored-field blocks. Each source
 * is encoded to UTF-8 when the encoder asks for it, into one buffer reused doc after doc (the
 * encoder copies what it is handed before its next call): all of them at once in one table was the
 * largest array of a refresh's build, ~4 MB per 16k short docs, held to the end of the build (issue 22).
 */
function encodeSources(sources: readonly string[], codec: IndexCodec): StoredFieldsSections {
  let buffer = Buffer.allocUnsafe(4096);
  const sourceAt = (d: number): Uint8Array => {
    const s = sources[d];
    // 3 bytes per UTF-16 unit at most (a surrogate pair is 4 bytes for 2 units; a lone one 3).
    if (s.length * 3 > buffer.length) buffer = Buffer.allocUnsafe(Math.max(s.length * 3, buffer.length * 2));
    return buffer.subarray(0, buffer.write(s, 0, 'utf8'));
  };
  // Their length in UTF-16 units: the stored blocks' buffer is sized once (compressed, they are less).
  let chars = 0;
  for (let d = 0; d < sources.length; d++) chars += sources[d].length;
  return encodeStoredFields(sources.length, sourceAt, codec, undefined, chars);
}

/** What `_source` keeps: nothing when disabled, the filtered object with includes/excludes, else the text as sent. */
export function storedSource(mapping: RootMapping, text: string, parsed: Record<string, unknown>): string {
  const cfg = mapping.source;
  if (cfg === null) return text;
  if (!cfg.enabled) return '';
  if (cfg.includes.length === 0 && cfg.excludes.length === 0) return text;
  return JSON.stringify(filterSource(parsed, { fetch: true, includes: cfg.includes, excludes: cfg.excludes }));
}
