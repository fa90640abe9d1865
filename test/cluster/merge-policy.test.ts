/**
 * The background merge policy (cluster/indices/merge-policy.ts): ten adjacent segments of one size
 * tier, tiers by bytes above ES's 2mb floor segment.
 */
import { describe, expect, it } from 'vitest';
import { FLOOR_SEGMENT_BYTES, MERGE_FACTOR, findMerge, mergeTier, type MergeCandidate } from '../../src/cluster/indices/merge-policy.js';

const MB = 1024 * 1024;
const seg = (bytes: number, maxDoc = 1000, liveCount = maxDoc): MergeCandidate => ({ bytes, maxDoc, liveCount });

describe('merge policy', () => {
  it('puts every segment below ten floors in the lowest tier, then one tier per power of ten', () => {
    expect(mergeTier(seg(1000))).toBe(0);
    expect(mergeTier(seg(FLOOR_SEGMENT_BYTES))).toBe(0);
    expect(mergeTier(seg(19 * MB))).toBe(0);
    expect(mergeTier(seg(21 * MB))).toBe(1);
    expect(mergeTier(seg(210 * MB))).toBe(2);
    // Deleted docs do not count: a 30 MB segment with two thirds deleted is merged as 10 MB.
    expect(mergeTier(seg(30 * MB, 3000, 1000))).toBe(0);
    expect(mergeTier(seg(0, 0, 0))).toBe(0);
  });

  it('merges the newest run of ten adjacent segments of one tier, and nothing before there are ten', () => {
    expect(findMerge(Array.from({ length: MERGE_FACTOR - 1 }, () => seg(3 * MB)))).toBeNull();
    const segments = [seg(60 * MB), ...Array.from({ length: 12 }, () => seg(3 * MB))];
    expect(findMerge(segments)).toEqual([3, 13]);
    // A larger segment in the middle breaks the run: only the ten after it qualify.
    const broken = [...Array.from({ length: 5 }, () => seg(3 * MB)), seg(60 * MB), ...Array.from({ length: 10 }, () => seg(3 * MB))];
    expect(findMerge(broken)).toEqual([6, 16]);
  });

  it('merges a bulk load\'s refreshes of a few thousand to ~16k docs together (issue 22)', () => {
    // What a 1M-doc load published: 5k–7.5k-doc and 10k–16k-doc segments interleaved. By doc count
    // they fell into two tiers and no ten adjacent ones shared one, so nothing merged (64 segments).
    const docs = [5000, 5000, 10000, 10000, 12500, 12500, 5000, 7500, 15000, 16250, 7500, 10000, 13750];
    const segments = docs.map((d) => seg(d * 420, d));
    expect(findMerge(segments)).toEqual([docs.length - MERGE_FACTOR, docs.length]);
  });
});
