/**
 * Merging completion entries (completion-entries.ts) along with the term dictionary: for each term
 * of the merged dictionary, the entries of every source segment in segment order, deleted
 * documents dropped and doc ids remapped — so entries stay grouped by term, docs ascending.
 */
import { encodeStrings } from './bytes.js';
import type { CompletionEntries } from './completion-entries.js';
import { GrowableUint32 } from './growable.js';
import { readCompletionText, type Segment, type SegmentField } from './segment-reader.js';
import type { TermUnion } from './term-union.js';

export interface CompletionMergePart {
  readonly segment: Segment;
  readonly field: SegmentField;
  /** Old doc → new doc, -1 when deleted. */
  readonly docMap: Int32Array;
}

/**
 * `union` lists the (part, old ordinal) pairs of each merged term before emptied terms were
 * dropped; `kept` lists the surviving terms (null: all survived).
 */
export function mergeCompletionEntries(
  parts: readonly CompletionMergePart[], union: Pick<TermUnion, 'termCount' | 'entryStart' | 'entryPart' | 'entryOldOrd'>, kept: readonly number[] | null,
): CompletionEntries {
  const termCount = kept ? kept.length : union.termCount;
  const entryStart = new Uint32Array(termCount + 1);
  const docs = new GrowableUint32(1024);
  const weights = new GrowableUint32(1024);
  const surfaces: string[] = [];
  for (let t = 0; t < termCount; t++) {
    entryStart[t] = docs.length;
    const merged = kept ? kept[t] : t;
    for (let e = union.entryStart[merged]; e < union.entryStart[merged + 1]; e++) {
      const oldOrd = union.entryOldOrd[e];
      const { segment, field, docMap } = parts[union.entryPart[e]];
      const c = field.completion!;
      for (let i = c.entryStart[oldOrd]; i < c.entryStart[oldOrd + 1]; i++) {
        const nd = docMap[c.docs[i]];
        if (nd < 0) continue;
        docs.push(nd);
        weights.push(c.weights[i]);
        surfaces.push(readCompletionText(segment, field, i));
      }
    }
  }
  entryStart[termCount] = docs.length;
  return { entryStart, docs: docs.toArray(), weights: weights.toArray(), surfaces: encodeStrings(surfaces) };
}
