/**
 * Where a segment's bytes go, by kind (ES `segments.*_memory_in_bytes`): read from the section
 * directory, so it costs a few hundred integer reads per segment and no parsing.
 */
import { DIRECTORY_ENTRY_BYTES, HEADER_BYTES, NO_FIELD, Section } from './format.js';
import type { Segment } from './segment-reader.js';

export interface SegmentMemory {
  /** Term dictionaries: term bytes, offsets, hashes, postings starts, total term freqs. */
  terms: number;
  /** Postings of text and keyword fields: doc ids, freqs, block-max metadata and impacts. */
  postings: number;
  positions: number;
  /** Postings of sparse_vector / rank_features fields (doc ids, encoded weights, block metadata). */
  featurePostings: number;
  /** Field lengths and the docs-with-field bitsets. */
  norms: number;
  docValues: number;
  points: number;
  completion: number;
  /** dense_vector values and magnitudes. */
  vectors: number;
  /** `_source` as stored. */
  storedFields: number;
  /** `_id` bytes, offsets and hash. */
  idMap: number;
  /** Per-doc seq_no, version and write order. */
  seqNoVersion: number;
  /** Header, directory, info JSON and alignment padding. */
  other: number;
  total: number;
}

export function emptySegmentMemory(): SegmentMemory {
  return { terms: 0, postings: 0, positions: 0, featurePostings: 0, norms: 0, docValues: 0, points: 0, completion: 0, vectors: 0, storedFields: 0, idMap: 0, seqNoVersion: 0, other: 0, total: 0 };
}

const POSTINGS = new Set([Section.PostingDocs, Section.PostingFreqs, Section.BlockStart, Section.BlockMaxFreq, Section.BlockMaxFreq8, Section.BlockMaxFreq16, Section.BlockMinNorm, Section.BlockLastDoc, Section.BlockPosStart, Section.BlockImpactFreqs, Section.BlockImpactFreqs8, Section.BlockImpactFreqs16, Section.BlockImpactNorms, Section.FeatureBlockOffsets, Section.FeaturePacked, Section.PostingBlockOffsets, Section.PostingPacked]);

function kindOf(kind: Section, featureField: boolean): Exclude<keyof SegmentMemory, 'other' | 'total'> | null {
  if (POSTINGS.has(kind)) return featureField ? 'featurePostings' : 'postings';
  switch (kind) {
    case Section.IdBytes: case Section.IdOffsets: case Section.IdHash: case Section.IdStarts: case Section.IdHash24: return 'idMap';
    case Section.SeqNo: case Section.Version: case Section.IndexOrder: case Section.SeqNoPacked: case Section.VersionPacked: case Section.IndexOrderPacked: return 'seqNoVersion';
    case Section.SourceBytes: case Section.SourceOffsets: case Section.SourceBlockDocs: case Section.SourceBlockOffsets: case Section.SourceBlocks: case Section.SourceDictionary: return 'storedFields';
    case Section.TermBytes: case Section.TermOffsets: case Section.TermHash: case Section.PostingsStart: case Section.TotalTermFreq: return 'terms';
    case Section.Positions: case Section.Positions8: case Section.Positions16: return 'positions';
    case Section.Norms: case Section.DocsWithField: return 'norms';
    case Section.DocValueOffsets: case Section.DocValueNumbers: case Section.DocValueOrds: return 'docValues';
    case Section.PointValues: case Section.PointDocs: return 'points';
    case Section.VectorFloat32: case Section.VectorInt8: case Section.VectorMagnitude: return 'vectors';
    default: return kind >= Section.CompletionEntryStart ? 'completion' : null;
  }
}

/** Adds the segment's bytes by kind to `into`. */
export function addSegmentMemory(into: SegmentMemory, segment: Segment): SegmentMemory {
  const sab = segment.sab;
  const count = new Uint32Array(sab, 0, 4)[2];
  const dir = new Uint32Array(sab, HEADER_BYTES, (count * DIRECTORY_ENTRY_BYTES) / 4);
  let sections = 0;
  for (let i = 0; i < count; i++) {
    const field = dir[i * 4 + 1];
    const length = dir[i * 4 + 3];
    const feature = field !== NO_FIELD && segment.info.fields[field]?.structure === 'features';
    const k = kindOf(dir[i * 4] as Section, feature);
    if (k === null) continue;
    into[k] += length;
    sections += length;
  }
  into.other += sab.byteLength - sections;
  into.total += sab.byteLength;
  return into;
}
