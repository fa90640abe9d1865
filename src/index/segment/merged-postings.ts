/**
 * Where a merge puts each merged term's postings (segment-merger.ts hands them over term by term).
 *
 * `WholeFieldPostings` gathers the field's flat docs and freqs (mergeSegments' SegmentInput).
 * `StreamedPostings` encodes each term's blocks straight into the new segment's PostingPacked
 * section and keeps only the per-block and per-term metadata, so a merge never holds a field's
 * docs and freqs as whole u32 arrays (issue 22: at 1M short docs the text field's were ~100 MB
 * each, at the force-merge's peak). Both give the same sections (writeField's bytes).
 */
import { BLOCK_SIZE } from './format.js';
import { PackedPostingsAppender } from './packed-postings.js';
import { newBlockMetadata, termBlockMetadata, type BlockMetadata, type PostingsSections } from './segment-writer.js';

export interface TermPostingsSink {
  /** Merged term `t`'s postings: docs/freqs[0, count), count ≥ 1, docs ascending. */
  term(t: number, docs: Uint32Array, freqs: Uint32Array | null, count: number): void;
}

export class WholeFieldPostings implements TermPostingsSink {
  readonly docs: Uint32Array;
  readonly freqs: Uint32Array | null;
  length = 0;

  /** `bound`: the sources' postings (merged terms have no more). */
  constructor(bound: number, hasFreqs: boolean) {
    this.docs = new Uint32Array(bound);
    this.freqs = hasFreqs ? new Uint32Array(bound) : null;
  }

  term(_t: number, docs: Uint32Array, freqs: Uint32Array | null, count: number): void {
    this.docs.set(docs.subarray(0, count), this.length);
    if (this.freqs && freqs) this.freqs.set(freqs.subarray(0, count), this.length);
    this.length += count;
  }
}

export class StreamedPostings implements TermPostingsSink {
  private readonly appender: PackedPostingsAppender;
  private readonly blockStart: Uint32Array;
  private readonly blockOffsets: Uint32Array;
  private readonly metadata: BlockMetadata;
  /** Documents with a posting (docCount). */
  private readonly seen: Uint32Array;
  private blocks = 0;
  private pos = 0;
  docCount = 0;
  postings = 0;

  /**
   * `write`: the open PostingPacked section; `terms`: the union's terms; `blocksBound`: the
   * sources' blocks of the field (a merged term has at most the sum of its sources' blocks).
   */
  constructor(write: (bytes: Uint8Array) => void, terms: number, blocksBound: number, private readonly norms: Uint8Array | null, positions: boolean, hasFreqs: boolean, maxDoc: number) {
    this.appender = new PackedPostingsAppender(write);
    this.blockStart = new Uint32Array(terms + 1);
    this.blockOffsets = new Uint32Array(blocksBound + 1);
    this.metadata = newBlockMetadata(blocksBound, terms, norms !== null, positions, hasFreqs);
    this.seen = new Uint32Array((maxDoc + 31) >>> 5);
  }

  term(t: number, docs: Uint32Array, freqs: Uint32Array | null, count: number): void {
    this.blockStart[t] = this.blocks;
    this.pos = termBlockMetadata(this.metadata, t, this.blocks, docs, freqs, this.norms, 0, count, this.pos);
    this.appender.addTerm(this.blockOffsets, this.blocks, docs, freqs, 0, count);
    this.blocks += Math.ceil(count / BLOCK_SIZE);
    this.postings += count;
    const seen = this.seen;
    for (let i = 0; i < count; i++) {
      const d = docs[i];
      const m = 1 << (d & 31);
      if ((seen[d >>> 5] & m) === 0) {
        seen[d >>> 5] |= m;
        this.docCount++;
      }
    }
  }

  /** Sum of the freqs (of the postings when there are none). */
  get sumTotalTermFreq(): number {
    return this.metadata.ttf ? this.pos : this.postings;
  }

  /**
   * Ends the packed section's bytes and gives the other postings sections; `kept` lists the union's
   * terms that keep postings when some lost all theirs to deletes (they had no blocks).
   */
  finish(postingsStart: Uint32Array, termCount: number, kept: readonly number[] | null, positions: PostingsSections['positions']): { sections: PostingsSections; blockOffsets: Uint32Array } {
    this.appender.flush();
    this.blockStart[this.blockStart.length - 1] = this.blocks;
    this.blockOffsets[this.blocks] = this.appender.bytes;
    let blockStart = this.blockStart;
    let metadata = this.metadata;
    if (kept) {
      blockStart = new Uint32Array(kept.length + 1);
      kept.forEach((t, i) => (blockStart[i] = this.blockStart[t]));
      blockStart[kept.length] = this.blocks;
      const ttf = metadata.ttf;
      if (ttf) metadata = { ...metadata, ttf: Uint32Array.from(kept, (t) => ttf[t]) };
    }
    return { sections: { postingsStart, termCount, blockStart, metadata, features: false, positions }, blockOffsets: this.blockOffsets.subarray(0, this.blocks + 1) };
  }
}
