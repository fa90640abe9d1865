/**
 * Sorting by fields (ES FieldSortBuilder over doc values): per-doc sort values from numeric or
 * keyword doc values with `mode` for multi-valued fields and `missing` placement, `_score` and
 * `_doc` keys, a bounded collector keeping the best k, and `search_after` filtering. Ties on every
 * key fall back to write order, the same tie-break the score sort uses.
 */
import type { CompiledScript } from '../../dsl/index.js';
import { scriptProgram, type SegmentScript } from '../script/script-program.js';
import { termAt, type Segment, type SegmentField } from '../../index/index.js';

export type SortValue = number | string | null;

export type ExecSort =
  | { readonly kind: 'score'; readonly desc: boolean }
  | { readonly kind: 'doc'; readonly desc: boolean }
  /** `_shard_doc` (point-in-time tiebreaker): base + write order, unique per document of the searched indices. */
  | { readonly kind: 'shard_doc'; readonly desc: boolean; readonly base: number }
  | { readonly kind: 'numeric'; readonly field: string; readonly desc: boolean; readonly mode: 'min' | 'max' | 'sum' | 'avg' | 'median'; readonly missing: number }
  | { readonly kind: 'keyword'; readonly field: string; readonly desc: boolean; readonly mode: 'min' | 'max'; readonly missingFirst: boolean; readonly missingValue: string | null }
  /** `_script`: the script's double (`number`) or String (`string`; null sorts last) per document. */
  | { readonly kind: 'script'; readonly desc: boolean; readonly type: 'number' | 'string'; readonly script: CompiledScript };

/** Compares two values of one sort key in ascending order (nulls = missing keyword values). */
function compareKey(key: ExecSort, a: SortValue, b: SortValue): number {
  if (key.kind === 'script' && key.type === 'string') {
    if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
    return codePointCompare(a as string, b as string);
  }
  if (key.kind === 'keyword') {
    if (a === null || b === null) {
      if (a === b) return 0;
      // missing sorts first or last whatever the order, so undo the later reversal here.
      const missingSmaller = key.missingFirst !== key.desc;
      return a === null ? (missingSmaller ? -1 : 1) : missingSmaller ? 1 : -1;
    }
    return codePointCompare(a as string, b as string);
  }
  return (a as number) - (b as number) || 0;
}

function codePointCompare(a: string, b: string): number {
  // Sort keys are compared as Lucene BytesRef: UTF-8 byte order = code point order.
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca - cb;
    if (ca > 0xffff) i++;
  }
  return a.length - b.length;
}

export function compareSortValues(keys: readonly ExecSort[], a: readonly SortValue[], b: readonly SortValue[]): number {
  for (let i = 0; i < keys.length; i++) {
    const c = compareKey(keys[i], a[i], b[i]);
    if (c !== 0) return keys[i].desc ? -c : c;
  }
  return 0;
}

function numericValue(field: SegmentField | undefined, doc: number, mode: string, missing: number): number {
  if (!field || !field.docValueOffsets || !field.docValueNumbers) return missing;
  const start = field.docValueOffsets[doc];
  const end = field.docValueOffsets[doc + 1];
  if (start === end) return missing;
  const v = field.docValueNumbers;
  switch (mode) {
    case 'min':
      return v[start];
    case 'max':
      return v[end - 1];
    case 'sum': {
      let s = 0;
      for (let i = start; i < end; i++) s += v[i];
      return s;
    }
    case 'avg': {
      let s = 0;
      for (let i = start; i < end; i++) s += v[i];
      return s / (end - start);
    }
    default: {
      const n = end - start;
      const mid = start + (n >> 1);
      return n % 2 === 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
    }
  }
}

function keywordValue(segment: Segment, field: SegmentField | undefined, doc: number, mode: 'min' | 'max', missingValue: string | null): string | null {
  if (!field || !field.docValueOffsets || !field.docValueOrds) return missingValue;
  const start = field.docValueOffsets[doc];
  const end = field.docValueOffsets[doc + 1];
  if (start === end) return missingValue;
  return termAt(segment, field, field.docValueOrds[mode === 'min' ? start : end - 1]);
}

/** Reads the sort values of docs in one segment. */
export class SortValueReader {
  private readonly fields: Array<SegmentField | undefined>;
  private readonly scripts: Array<SegmentScript | null>;
  constructor(private readonly keys: readonly ExecSort[], private readonly segment: Segment) {
    this.fields = keys.map((k) => (k.kind === 'numeric' || k.kind === 'keyword' ? segment.fields.get(k.field) : undefined));
    this.scripts = keys.map((k) => (k.kind === 'script' ? scriptProgram(k.script).bind(segment) : null));
  }
  read(doc: number, score: number): SortValue[] {
    return this.keys.map((k, i) => {
      switch (k.kind) {
        case 'score':
          return score;
        case 'doc':
          return this.segment.indexOrder.get(doc);
        case 'shard_doc':
          return k.base + this.segment.indexOrder.get(doc);
        case 'numeric':
          return numericValue(this.fields[i], doc, k.mode, k.missing);
        case 'keyword':
          return keywordValue(this.segment, this.fields[i], doc, k.mode, k.missingValue);
        case 'script':
          return this.scripts[i]!(doc, score) as number | string | null;
      }
    });
  }
}

export interface FieldHit {
  readonly values: SortValue[];
  readonly score: number;
  /** Shard-local write order (segment base + doc). */
  readonly order: number;
}

/** Keeps the best k hits by sort values (then write order); a binary max-heap on "worst". */
export class TopFieldDocs {
  private readonly heap: FieldHit[] = [];
  constructor(private readonly keys: readonly ExecSort[], readonly capacity: number) {}

  private cmp(a: FieldHit, b: FieldHit): number {
    return compareSortValues(this.keys, a.values, b.values) || a.order - b.order;
  }

  /** True when a hit with these values could enter (used to skip reading scores/values). */
  offer(hit: FieldHit): void {
    if (this.capacity === 0) return;
    const h = this.heap;
    if (h.length < this.capacity) {
      h.push(hit);
      let i = h.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (this.cmp(h[i], h[p]) <= 0) break;
        [h[i], h[p]] = [h[p], h[i]];
        i = p;
      }
      return;
    }
    if (this.cmp(hit, h[0]) >= 0) return;
    h[0] = hit;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.cmp(h[l], h[m]) > 0) m = l;
      if (r < h.length && this.cmp(h[r], h[m]) > 0) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }

  sorted(): FieldHit[] {
    return [...this.heap].sort((a, b) => this.cmp(a, b));
  }
}
