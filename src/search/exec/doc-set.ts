/**
 * Matching-only clauses (terms, ranges, prefixes, patterns, exists, ids, slices) materialised per segment
 * as a bitset, then iterated as a constant-score scorer — Lucene's constant-score rewrite.
 */
import { docForId, forEachTermBlock, hasPostings, forEachAcceptedTerm, getBit, prefixRange, termAt, termOrd, termRange, type Segment, type SegmentField } from '../../index/index.js';
import type { DocSetExec } from '../plan/exec-nodes.js';
import { NO_MORE_DOCS, Scorer } from './scorer.js';
import { addSliceDocs } from './slice-docs.js';
import type { SearchDeadline } from './deadline.js';

export class BitSet {
  readonly words: Uint32Array;
  constructor(readonly length: number) {
    this.words = new Uint32Array((length + 31) >>> 5);
  }
  set(doc: number): void {
    this.words[doc >>> 5] |= 1 << (doc & 31);
  }
  /** First set bit ≥ from, or NO_MORE_DOCS. */
  nextSetBit(from: number): number {
    return nextSetBit(this.words, from, this.length);
  }
  cardinality(): number {
    let n = 0;
    for (let i = 0; i < this.words.length; i++) {
      let v = this.words[i];
      v = v - ((v >>> 1) & 0x55555555);
      v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
      n += Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
    }
    return n;
  }
}

export class BitSetScorer extends Scorer {
  private readonly count: number;
  constructor(private readonly bits: BitSet, private readonly constantScore: number) {
    super();
    this.count = bits.cardinality();
  }
  nextDoc(): number {
    return (this.doc = this.bits.nextSetBit(this.doc + 1));
  }
  advance(target: number): number {
    return (this.doc = this.bits.nextSetBit(target));
  }
  score(): number {
    return this.constantScore;
  }
  maxScore(): number {
    return this.constantScore;
  }
  cost(): number {
    return this.count;
  }
}

function addPostings(bits: BitSet, field: SegmentField, ord: number): void {
  const words = bits.words;
  forEachTermBlock(field, ord, (docs, n) => {
    for (let i = 0; i < n; i++) words[docs[i] >>> 5] |= 1 << (docs[i] & 31);
  });
}

function addTermRange(bits: BitSet, field: SegmentField, from: number, to: number): void {
  for (let t = from; t < to; t++) addPostings(bits, field, t);
}

/**
 * Builds the doc set of a matching-only clause in one segment; null when nothing can match. A
 * pattern's term expansion polls the deadline per term and stops when it expires (the shard then
 * reports `timed_out` with what it found).
 */
export function buildDocSet(exec: DocSetExec, segment: Segment, deadline: SearchDeadline | null): BitSet | null {
  const bits = new BitSet(segment.maxDoc);
  switch (exec.kind) {
    case 'terms': {
      const field = segment.fields.get(exec.field);
      if (!field || !hasPostings(field)) return null;
      for (const term of exec.terms) {
        const ord = termOrd(field, term);
        if (ord >= 0) addPostings(bits, field, ord);
      }
      break;
    }
    case 'term_range': {
      const field = segment.fields.get(exec.field);
      if (!field || !hasPostings(field)) return null;
      const [from, to] = termRange(field, exec.lower, exec.includeLower, exec.upper, exec.includeUpper);
      addTermRange(bits, field, from, to);
      break;
    }
    case 'prefix': {
      const field = segment.fields.get(exec.field);
      if (!field || !hasPostings(field)) return null;
      if (exec.caseInsensitive) {
        const p = exec.prefix.toLowerCase();
        for (let t = 0; t < field.info.termCount; t++) if (termAt(segment, field, t).toLowerCase().startsWith(p)) addPostings(bits, field, t);
      } else {
        const [from, to] = prefixRange(field, exec.prefix);
        addTermRange(bits, field, from, to);
      }
      break;
    }
    case 'pattern': {
      const field = segment.fields.get(exec.field);
      if (!field || !hasPostings(field)) return null;
      const stop = deadline === null ? () => false : () => deadline.expiredEvery();
      forEachAcceptedTerm(field, exec.automaton, stop, (from, to) => addTermRange(bits, field, from, to));
      break;
    }
    case 'numeric_range': {
      const field = segment.fields.get(exec.field);
      if (!field || !field.pointValues || !field.pointDocs) return null;
      const values = field.pointValues;
      let lo = 0;
      let hi = values.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (values[mid] < exec.lower) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < values.length && values[i] <= exec.upper; i++) bits.set(field.pointDocs[i]);
      break;
    }
    case 'exists': {
      for (const name of exec.fields) {
        const field = segment.fields.get(name);
        if (!field) continue;
        for (let w = 0; w < bits.words.length; w++) bits.words[w] |= field.docsWithField[w];
      }
      break;
    }
    case 'slice':
      addSliceDocs(bits.words, exec, segment);
      break;
    case 'ids': {
      for (const id of exec.ids) {
        const doc = docForId(segment, id);
        if (doc >= 0) bits.set(doc);
      }
      break;
    }
  }
  return bits;
}

export { getBit };

/** First set bit ≥ `from` of a doc bitset of `length` bits (a BitSet's words, a segment's DocsWithField), or NO_MORE_DOCS. */
export function nextSetBit(words: Uint32Array, from: number, length: number): number {
  if (from >= length) return NO_MORE_DOCS;
  let w = from >>> 5;
  let word = words[w] & (0xffffffff << (from & 31));
  while (word === 0) {
    if (++w >= words.length) return NO_MORE_DOCS;
    word = words[w];
  }
  const doc = (w << 5) + (31 - Math.clz32(word & -word));
  return doc < length ? doc : NO_MORE_DOCS;
}
