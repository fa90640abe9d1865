/**
 * Completion entries: what a `completion` field stores besides its term dictionary of analyzed
 * forms — one entry (doc, weight, surface form) per indexed input, grouped by term in term order
 * (docs ascending within a term). Lucene keeps the same triples as the outputs of a weighted FST
 * (NRTSuggester); here they sit in flat sections, so a prefix is a binary search in the sorted
 * terms and one contiguous entry range, and top-k by weight skips whole blocks through the
 * per-block maximum weight. Built from new documents (segment-builder.ts), merged
 * (completion-merge.ts), written and opened here.
 */
import { COMPLETION_BLOCK_SIZE, Section } from './format.js';
import type { StringTable } from './bytes.js';
import { sectionView, type SectionDirectory, type SectionSink } from './sab-layout.js';

/** The entries of one field, as the writer takes them. */
export interface CompletionEntries {
  /** Term t's entries are [entryStart[t], entryStart[t + 1]). */
  readonly entryStart: Uint32Array;
  readonly docs: Uint32Array;
  readonly weights: Uint32Array;
  /** The input of each entry as given (after max_input_length), what a suggestion option shows. */
  readonly surfaces: StringTable;
}

/** The same, opened over a segment's buffer. */
export interface CompletionSections {
  readonly entryStart: Uint32Array;
  readonly docs: Uint32Array;
  readonly weights: Uint32Array;
  readonly surfaceBytes: Uint8Array;
  readonly surfaceOffsets: Uint32Array;
  /** Max weight of entries [b·COMPLETION_BLOCK_SIZE, (b+1)·COMPLETION_BLOCK_SIZE). */
  readonly blockMaxWeight: Uint32Array;
}

export function writeCompletionEntries(w: SectionSink, ord: number, e: CompletionEntries): void {
  const n = e.weights.length;
  const blockMax = new Uint32Array(Math.ceil(n / COMPLETION_BLOCK_SIZE));
  for (let i = 0; i < n; i++) {
    const b = (i / COMPLETION_BLOCK_SIZE) | 0;
    if (e.weights[i] > blockMax[b]) blockMax[b] = e.weights[i];
  }
  w.add(Section.CompletionEntryStart, ord, e.entryStart);
  w.add(Section.CompletionEntryDocs, ord, e.docs);
  w.add(Section.CompletionEntryWeights, ord, e.weights);
  w.add(Section.CompletionSurfaceBytes, ord, e.surfaces.bytes);
  w.add(Section.CompletionSurfaceOffsets, ord, e.surfaces.offsets);
  w.add(Section.CompletionBlockMaxWeight, ord, blockMax);
}

export function readCompletionSections(sab: SharedArrayBuffer | ArrayBuffer, dir: SectionDirectory, ord: number): CompletionSections {
  const need = <T>(v: T | null, kind: Section): T => {
    if (v === null) throw new Error(`corrupt segment: missing section ${Section[kind]}`);
    return v;
  };
  return {
    entryStart: need(sectionView(sab, dir, Uint32Array, Section.CompletionEntryStart, ord), Section.CompletionEntryStart),
    docs: need(sectionView(sab, dir, Uint32Array, Section.CompletionEntryDocs, ord), Section.CompletionEntryDocs),
    weights: need(sectionView(sab, dir, Uint32Array, Section.CompletionEntryWeights, ord), Section.CompletionEntryWeights),
    surfaceBytes: need(sectionView(sab, dir, Uint8Array, Section.CompletionSurfaceBytes, ord), Section.CompletionSurfaceBytes),
    surfaceOffsets: need(sectionView(sab, dir, Uint32Array, Section.CompletionSurfaceOffsets, ord), Section.CompletionSurfaceOffsets),
    blockMaxWeight: need(sectionView(sab, dir, Uint32Array, Section.CompletionBlockMaxWeight, ord), Section.CompletionBlockMaxWeight),
  };
}
