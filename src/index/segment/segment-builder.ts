/**
 * New documents → SegmentInput (Lucene's IndexingChain in miniature): each document's `_source`
 * is parsed with the index mapping, text values are analysed into postings with frequencies,
 * positions and norms, keyword values become terms + sorted-set doc values, numbers/dates/booleans
 * become numeric doc values (points are derived by the writer).
 *
 * Runs in a worker at refresh. Documents are added in the order they were written, so doc ids
 * follow write order (the shard's tie-break order).
 */
import { getAnalyzer, type Analyzer } from '../../analysis/index.js';
import { filterSource } from '../../common/source-filter.js';
import { DocumentParser, type DocumentParseLimits } from '../mapping/document-parser.js';
import type { ResolvedField, RootMapping } from '../mapping/types.js';
import { compareCodePoints, encodeStrings } from './bytes.js';
import type { FieldStructure } from './format.js';
import { GrowableFloat64, GrowableUint32 } from './growable.js';
import { bitsetWords, setBit } from './live-docs.js';
import { intToByte4 } from './norms.js';
import type { FieldInput, SegmentInput } from './segment-input.js';

export interface BuildDocument {
  readonly id: string;
  /** The `_source` JSON as the client sent it. */
  readonly source: string;
  readonly seqNo: number;
  readonly version: number;
  readonly indexOrder: number;
}

/** Postings of one term while building. */
interface TermPostings {
  docs: GrowableUint32;
  freqs: GrowableUint32;
  positions: GrowableUint32 | null;
  lastDoc: number;
}

abstract class FieldAccumulator {
  readonly docsWithField: GrowableUint32 = new GrowableUint32();
  private lastDoc = -1;
  constructor(readonly field: ResolvedField) {}
  markDoc(doc: number): void {
    if (doc !== this.lastDoc) {
      this.docsWithField.push(doc);
      this.lastDoc = doc;
    }
  }
  abstract add(doc: number, value: string | number): void;
  abstract finishDoc(doc: number): void;
  abstract build(maxDoc: number): FieldInput;
  protected bitset(maxDoc: number): Uint32Array {
    const bits = new Uint32Array(bitsetWords(maxDoc));
    for (let i = 0; i < this.docsWithField.length; i++) setBit(bits, this.docsWithField.data[i]);
    return bits;
  }
}

/** Shared term dictionary logic for text and keyword fields. */
abstract class TermsAccumulator extends FieldAccumulator {
  protected readonly terms = new Map<string, TermPostings>();
  constructor(field: ResolvedField, private readonly withPositions: boolean) {
    super(field);
  }
  protected addToken(doc: number, term: string, position: number): void {
    let p = this.terms.get(term);
    if (p === undefined) {
      p = { docs: new GrowableUint32(4), freqs: new GrowableUint32(4), positions: this.withPositions ? new GrowableUint32(4) : null, lastDoc: -1 };
      this.terms.set(term, p);
    }
    if (p.lastDoc !== doc) {
      p.docs.push(doc);
      p.freqs.push(1);
      p.lastDoc = doc;
    } else {
      p.freqs.data[p.freqs.length - 1]++;
    }
    if (p.positions) p.positions.push(position);
  }
  /** Sorted terms and CSR postings; returns the old→new ordinal order for doc values. */
  protected buildTerms(structure: FieldStructure, withFreqs: boolean): { input: Omit<FieldInput, 'norms' | 'docsWithField' | 'docValueOffsets' | 'docValueNumbers' | 'docValueOrds'>; sorted: string[] } {
    const sorted = [...this.terms.keys()].sort(compareCodePoints);
    const postingsStart = new Uint32Array(sorted.length + 1);
    let total = 0;
    let totalPositions = 0;
    for (let t = 0; t < sorted.length; t++) {
      const p = this.terms.get(sorted[t])!;
      postingsStart[t] = total;
      total += p.docs.length;
      if (p.positions) totalPositions += p.positions.length;
    }
    postingsStart[sorted.length] = total;
    const docs = new Uint32Array(total);
    const freqs = withFreqs ? new Uint32Array(total) : null;
    const positions = this.withPositions ? new Uint32Array(totalPositions) : null;
    let pos = 0;
    for (let t = 0; t < sorted.length; t++) {
      const p = this.terms.get(sorted[t])!;
      docs.set(p.docs.data.subarray(0, p.docs.length), postingsStart[t]);
      if (freqs) freqs.set(p.freqs.data.subarray(0, p.freqs.length), postingsStart[t]);
      if (positions && p.positions) {
        positions.set(p.positions.data.subarray(0, p.positions.length), pos);
        pos += p.positions.length;
      }
    }
    return {
      input: {
        name: this.field.path, type: this.field.type, structure, indexed: this.field.indexed, terms: encodeStrings(sorted),
        termCount: sorted.length, postingsStart, docs, freqs, positions,
      },
      sorted,
    };
  }
}

class TextAccumulator extends TermsAccumulator {
  private readonly analyzer: Analyzer;
  private length = 0;
  private nextPosition = 0;
  private norms: Uint8Array = new Uint8Array(64);
  private currentDoc = -1;
  constructor(field: ResolvedField) {
    super(field, true);
    const a = getAnalyzer(field.analyzer);
    if (!a) throw new Error(`unknown analyzer [${field.analyzer}]`);
    this.analyzer = a;
  }
  add(doc: number, value: string | number): void {
    this.markDoc(doc);
    if (doc !== this.currentDoc) {
      this.currentDoc = doc;
      this.length = 0;
      this.nextPosition = 0;
    } else {
      this.nextPosition += this.field.positionIncrementGap;
    }
    this.nextPosition = this.analyzer.analyze(String(value), (term, position) => {
      this.addToken(doc, term, position);
      this.length++;
    }, this.nextPosition);
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

class KeywordAccumulator extends TermsAccumulator {
  /** Per doc value list, as raw strings until ordinals are known. */
  private readonly dvDocs = new GrowableUint32();
  private readonly dvValues: string[] = [];
  constructor(field: ResolvedField) {
    super(field, false);
  }
  add(doc: number, value: string | number): void {
    this.markDoc(doc);
    const term = String(value);
    this.addToken(doc, term, 0);
    if (this.field.docValues) {
      this.dvDocs.push(doc);
      this.dvValues.push(term);
    }
  }
  finishDoc(): void {}
  build(maxDoc: number): FieldInput {
    const { input, sorted } = this.buildTerms('keyword', false);
    let docValueOffsets: Uint32Array | null = null;
    let docValueOrds: Uint32Array | null = null;
    if (this.field.docValues) {
      const ordOf = new Map<string, number>();
      sorted.forEach((t, i) => ordOf.set(t, i));
      // Sorted-set doc values: per doc, distinct ordinals ascending.
      const perDoc = new Map<number, number[]>();
      for (let i = 0; i < this.dvDocs.length; i++) {
        const d = this.dvDocs.data[i];
        let list = perDoc.get(d);
        if (!list) perDoc.set(d, (list = []));
        const o = ordOf.get(this.dvValues[i])!;
        if (!list.includes(o)) list.push(o);
      }
      docValueOffsets = new Uint32Array(maxDoc + 1);
      const ords = new GrowableUint32(Math.max(16, this.dvDocs.length));
      for (let d = 0; d < maxDoc; d++) {
        docValueOffsets[d] = ords.length;
        const list = perDoc.get(d);
        if (list) for (const o of list.sort((a, b) => a - b)) ords.push(o);
      }
      docValueOffsets[maxDoc] = ords.length;
      docValueOrds = ords.toArray();
    }
    return { ...input, freqs: null, norms: null, docsWithField: this.bitset(maxDoc), docValueOffsets, docValueNumbers: null, docValueOrds };
  }
}

class NumericAccumulator extends FieldAccumulator {
  private readonly docs = new GrowableUint32();
  private readonly values = new GrowableFloat64();
  add(doc: number, value: string | number): void {
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

function accumulatorFor(field: ResolvedField): FieldAccumulator {
  switch (field.type) {
    case 'text':
      return new TextAccumulator(field);
    case 'keyword':
      return new KeywordAccumulator(field);
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

  constructor(private readonly mapping: RootMapping, limits: DocumentParseLimits) {
    // The coordinator validated every document against this (or an older, smaller) mapping, so
    // the limits cannot trip here; pass them through anyway to run the very same code.
    this.parser = new DocumentParser(mapping, limits);
  }

  add(doc: BuildDocument): void {
    const d = this.maxDoc++;
    const parsed = JSON.parse(doc.source) as Record<string, unknown>;
    this.touched.length = 0;
    this.parser.parse(parsed, doc.id, doc.source, (field, value) => {
      let acc = this.fields.get(field.path);
      if (!acc) this.fields.set(field.path, (acc = accumulatorFor(field)));
      if (acc.docsWithField.length === 0 || acc.docsWithField.data[acc.docsWithField.length - 1] !== d) this.touched.push(acc);
      acc.add(d, value);
    });
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

  finish(): SegmentInput {
    const fields = [...this.fields.values()].sort((a, b) => compareCodePoints(a.field.path, b.field.path)).map((f) => f.build(this.maxDoc));
    return {
      maxDoc: this.maxDoc,
      ids: encodeStrings(this.ids),
      seqNo: this.seqNo.toArray(),
      version: this.version.toArray(),
      indexOrder: this.indexOrder.toArray(),
      sources: encodeStrings(this.sources),
      fields,
    };
  }
}

/** What `_source` keeps: nothing when disabled, the filtered object with includes/excludes, else the text as sent. */
export function storedSource(mapping: RootMapping, text: string, parsed: Record<string, unknown>): string {
  const cfg = mapping.source;
  if (cfg === null) return text;
  if (!cfg.enabled) return '';
  if (cfg.includes.length === 0 && cfg.excludes.length === 0) return text;
  return JSON.stringify(filterSource(parsed, { fetch: true, includes: cfg.includes, excludes: cfg.excludes }));
}
