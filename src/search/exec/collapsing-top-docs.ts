/**
 * Field collapsing on one shard (Lucene's CollapsingTopDocsCollector, a FirstPassGroupingCollector
 * that keeps the best document of each group): the top `capacity` groups of a collapse field's
 * values, each represented by its best hit by the search's order (score, or sort values), ties by
 * write order. Memory is bounded by the capacity (from + size): a group pushed out of the top can
 * only come back with a better hit, which is then its best seen so far, since the groups that
 * pushed it out have only improved since.
 */
import { IllegalStateError } from '../../errors/index.js';
import { termAt, type Segment, type SegmentField } from '../../index/index.js';
import type { SortValue } from './field-sort.js';

/** The collapse field of one index, as the shards read it: keyword terms or numeric values from doc values. */
export interface ExecCollapse {
  readonly field: string;
  readonly kind: 'keyword' | 'numeric';
}

/** A group's best hit so far. */
export interface GroupHit {
  /** The collapse value: a term, a number, or null for documents without one (all of them one group). */
  key: SortValue;
  score: number;
  /** Sort values (a sorted search); null when ranked by score. */
  values: SortValue[] | null;
  /** Shard-local write order (segment base + doc). */
  order: number;
  /** Position in the heap. */
  pos: number;
}

/** `< 0` when `a` ranks before `b`. */
export type HitOrder = (a: GroupHit, b: GroupHit) => number;

export class CollapsingTopDocs {
  private readonly groups = new Map<SortValue, GroupHit>();
  /** Worst group at the root: a parent ranks after its children. */
  private readonly heap: GroupHit[] = [];
  /** The hit being offered, compared before a hit is made for it (most hits of a large shard never enter). */
  private readonly probe: GroupHit = { key: null, score: 0, values: null, order: 0, pos: -1 };

  constructor(private readonly order: HitOrder, readonly capacity: number) {}

  /** Offers a hit of group `key`. */
  offer(key: SortValue, score: number, values: SortValue[] | null, order: number): void {
    if (this.capacity === 0) return;
    const h = this.heap;
    const probe = this.probe;
    probe.key = key;
    probe.score = score;
    probe.values = values;
    probe.order = order;
    // Full, and no better than the worst group's best: not better than its own group's best either.
    if (h.length === this.capacity && this.order(probe, h[0]) >= 0) return;
    const group = this.groups.get(key);
    if (group !== undefined && this.order(probe, group) >= 0) return;
    const hit: GroupHit = { key, score, values, order, pos: -1 };
    if (group !== undefined) {
      // The group improved: its new best takes its place and moves away from the root.
      hit.pos = group.pos;
      h[hit.pos] = hit;
      this.groups.set(hit.key, hit);
      this.down(hit.pos);
      return;
    }
    if (h.length < this.capacity) {
      hit.pos = h.length;
      h.push(hit);
      this.groups.set(hit.key, hit);
      this.up(hit.pos);
      return;
    }
    this.groups.delete(h[0].key);
    hit.pos = 0;
    h[0] = hit;
    this.groups.set(hit.key, hit);
    this.down(0);
  }

  /** The groups, best first. */
  sorted(): GroupHit[] {
    return [...this.heap].sort(this.order);
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.order(h[p], h[i]) >= 0) break;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.order(h[l], h[m]) > 0) m = l;
      if (r < h.length && this.order(h[r], h[m]) > 0) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(i: number, j: number): void {
    const h = this.heap;
    const t = h[i];
    h[i] = h[j];
    h[j] = t;
    h[i].pos = i;
    h[j].pos = j;
  }
}

/**
 * Reads the collapse value of documents in one segment (ES CollapsingDocValuesSource): the single
 * doc value, null when the document has none; a document with several fails the shard, as in ES.
 */
export class CollapseValueReader {
  private readonly values: SegmentField | undefined;
  /** Terms by ordinal, decoded once per segment. */
  private readonly terms: Array<string | undefined> = [];

  constructor(private readonly collapse: ExecCollapse, private readonly segment: Segment) {
    this.values = segment.fields.get(collapse.field);
  }

  read(doc: number): SortValue {
    const f = this.values;
    if (f === undefined || !f.docValueOffsets) return null;
    const start = f.docValueOffsets[doc];
    const end = f.docValueOffsets[doc + 1];
    if (start === end) return null;
    if (end - start > 1) throw new IllegalStateError(`failed to collapse ${doc}, the collapse field must be single valued`);
    if (this.collapse.kind === 'numeric') return f.docValueNumbers ? f.docValueNumbers[start] : null;
    if (!f.docValueOrds) return null;
    const ord = f.docValueOrds[start];
    return (this.terms[ord] ??= termAt(this.segment, f, ord));
  }
}
