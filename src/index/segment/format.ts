/**
 * The segment file format: one SharedArrayBuffer (and, on disk, the same bytes) per segment.
 *
 *   [header: MAGIC u32, FORMAT_VERSION u32, sectionCount u32, infoLength u32]
 *   [directory: sectionCount × (kind u32, field u32, byteOffset u32, byteLength u32)]
 *   [info: UTF-8 JSON SegmentInfo, padded to 8 bytes]
 *   [sections, each 8-byte aligned]
 *
 * Every section is one typed array; its kind says which and its element type. Field-level sections
 * carry the field's ordinal in SegmentInfo.fields, segment-level ones NO_FIELD.
 */

export const MAGIC = 0x54534547; // "TSEG"
/**
 * 2: sparse_vector / rank_features postings are block-packed (feature-postings.ts) instead of flat
 * PostingDocs / PostingFreqs. Format 1 segments are still read as they are (their feature fields keep
 * the flat sections) and become format 2 when a merge rewrites them.
 * 3: text / keyword / completion postings are block-packed (packed-postings.ts: PostingBlockOffsets
 * and PostingPacked instead of PostingDocs / PostingFreqs), positions are stored in the narrowest
 * unsigned type that holds the field's largest (Positions8 / Positions16 / Positions), and stored
 * `_source` is compressed in blocks (SourceBlock* sections, stored-fields.ts) instead of raw
 * SourceBytes / SourceOffsets. Readers go by the sections present, so formats 1 and 2 are read as
 * they are and become format 3 when a merge rewrites them.
 * 4: stored `_source` of the `default` codec is one LZ4 block per doc against the segment's
 * dictionary (BlockCodec.Lz4Doc, or RawDoc when a doc does not shrink), and SourceBlockDocs is just
 * [maxDoc] when every block holds one doc. Format 3's blocks (Raw, Lz4 4-doc, Deflate) still read.
 * seq_no, version and index order are packed (SeqNoPacked / VersionPacked / IndexOrderPacked,
 * doc-numbers.ts: base + slope × doc + narrow deltas) instead of Float64 per doc, and the id map's
 * starts and hash table are packed (IdStarts, IdHash24: id-map.ts).
 * Also in 4: packed postings blocks of more than 32 postings carry skip entries (the last doc of every 32
 * postings, packed-postings.ts), flagged per block in its widths byte. Format 3 blocks have none and
 * read as before; a merge rewrites them with skip entries.
 * 5: block impacts' freqs in the narrowest unsigned type that holds the field's largest
 * (BlockImpactFreqs8 / BlockImpactFreqs16 / BlockImpactFreqs), as positions are: nearly every term of
 * a refresh's segment is one block, so 4 × u32 of impact freqs per block were a quarter of the
 * segment's per-term metadata and ~10% of its bytes (issue 22). Format 4 segments still read.
 * 6: each block's max freq in the narrowest unsigned type that holds the field's largest
 * (BlockMaxFreq8 / BlockMaxFreq16 / BlockMaxFreq): a refresh's segment has about one block per term,
 * so a u32 a block was ~4 B of a term's metadata where 1 does (issue 22). And fields with impacts
 * (text with norms and freqs) write neither BlockMaxFreq nor BlockMinNorm: their blocks' bounds are
 * the impacts, and the two were never read. Older formats still read.
 * (BlockLastDoc stays u32 whatever the segment's size: as u16 in small segments only, the skip loops'
 * reads saw two array types in an index of mixed sizes, ~1.5% of a match query's p50 — issue 22, i22k.)
 */
export const FORMAT_VERSION = 6;
/** The oldest format this build reads. */
export const MIN_FORMAT_VERSION = 1;
export const HEADER_BYTES = 16;
export const DIRECTORY_ENTRY_BYTES = 16;
export const SECTION_ALIGNMENT = 8;
export const NO_FIELD = 0xffffffff;

/** Postings are grouped into blocks of this many for block-max metadata (Lucene uses 128 too). */
export const BLOCK_SIZE = 128;
/**
 * (freq, norm) pairs kept per block for score bounds ("impacts", as Lucene stores them): the
 * block's Pareto front — no other posting has both a higher freq and a shorter length — in
 * ascending norm order. Past this many, the longest pairs merge into one (their max freq with
 * their min norm), which still bounds them. Unused slots have freq 0.
 */
export const IMPACTS_PER_BLOCK = 4;

export enum Section {
  // segment level
  IdBytes = 1, // Uint8: UTF-8 `_id`s back to back
  IdOffsets = 2, // Uint32[maxDoc + 1]
  IdHash = 3, // Int32[pow2]: docId + 1, 0 = empty (open addressing, linear probing)
  SeqNo = 4, // Float64[maxDoc]
  Version = 5, // Float64[maxDoc]
  IndexOrder = 6, // Float64[maxDoc]: index-wide write order, the shard-independent tie-breaker
  SourceBytes = 7, // Uint8: stored `_source` JSON (UTF-8)
  SourceOffsets = 8, // Uint32[maxDoc + 1]; a doc without stored source has an empty range
  // format 3: stored `_source` in compressed blocks (stored-fields.ts) in place of SourceBytes / SourceOffsets
  SourceBlockDocs = 9, // Uint32[blocks + 1]: first doc of each block, then maxDoc; format 4: [maxDoc] alone when block = doc
  SourceBlockOffsets = 10, // Uint32[blocks + 1]: byte offset of each block in SourceBlocks, then its length
  SourceBlocks = 11, // Uint8: [codec u8][raw length varint][payload] per block (source-codec.ts)
  SourceDictionary = 12, // Uint8: the preset dictionary the blocks were compressed with (may be empty)
  // format 4: seq_no, version and index order packed (doc-numbers.ts) in place of SeqNo / Version / IndexOrder
  SeqNoPacked = 13, // Uint8: [base f64][slope u8][delta width u8][pad 6][deltas × maxDoc]
  VersionPacked = 14, // Uint8: as SeqNoPacked
  IndexOrderPacked = 15, // Uint8: as SeqNoPacked
  // format 4: the id map's per-doc tables packed (id-map.ts) in place of IdOffsets / IdHash
  IdStarts = 16, // Uint8: [delta width u8][pad 7][Uint32 start per 16 docs][each doc's start − its block's, 1/2/4 bytes × (maxDoc + 1)]
  IdHash24 = 17, // Uint8[pow2 × 3]: IdHash with 3-byte slots (docId + 1, little-endian), while maxDoc < 2^24 − 1
  // field level: term dictionary and postings
  TermBytes = 20, // Uint8: UTF-8 terms in code point order
  TermOffsets = 21, // Uint32[termCount + 1]
  TermHash = 22, // Int32[pow2]: termOrd + 1, 0 = empty
  PostingsStart = 23, // Uint32[termCount + 1]
  TotalTermFreq = 24, // Uint32[termCount] (fields with freqs)
  PostingDocs = 25, // Uint32[postings]
  PostingFreqs = 26, // Uint32[postings] (fields with freqs)
  BlockStart = 27, // Uint32[termCount + 1]: first block of each term
  BlockMaxFreq = 28, // Uint32[blocks]
  BlockMinNorm = 29, // Uint8[blocks]: smallest encoded length in the block (norms fields)
  BlockLastDoc = 30, // Uint32[blocks]
  BlockPosStart = 31, // Uint32[blocks]: index into Positions of the block's first posting
  Positions = 32, // Uint32[sum of freqs] (fields with positions; from format 3 only when a position needs 32 bits)
  Norms = 33, // Uint8[maxDoc]: Lucene SmallFloat-encoded field length; 0 = no value
  DocsWithField = 34, // Uint32 bitset[ceil(maxDoc / 32)]
  BlockImpactFreqs = 35, // Uint32[blocks × IMPACTS_PER_BLOCK] (norms fields with freqs); absent in older segments
  BlockImpactNorms = 36, // Uint8[blocks × IMPACTS_PER_BLOCK]
  // field level: doc values and points
  DocValueOffsets = 40, // Uint32[maxDoc + 1]
  DocValueNumbers = 41, // Float64: sorted values per doc (numeric, date, boolean)
  DocValueOrds = 42, // Uint32: sorted term ordinals per doc (keyword)
  PointValues = 43, // Float64: all values, ascending
  PointDocs = 44, // Uint32: doc of each point value
  // field level: completion entries (completion-entries.ts). The analyzed forms are the field's
  // term dictionary (with doc-deduplicated postings, so term queries work as in ES); each term's
  // entries are one (doc, weight, surface form) per input, contiguous in term order, so a prefix
  // is one contiguous entry range. Sections added after FORMAT_VERSION 1 was written: segments
  // without completion fields are unchanged, so older segments still read.
  CompletionEntryStart = 50, // Uint32[termCount + 1]: term t's entries are [start[t], start[t + 1])
  CompletionEntryDocs = 51, // Uint32[entries]
  CompletionEntryWeights = 52, // Uint32[entries]: input weight, 0..2^31-1
  CompletionSurfaceBytes = 53, // Uint8: UTF-8 surface forms (the inputs as given, truncated), back to back
  CompletionSurfaceOffsets = 54, // Uint32[entries + 1]
  CompletionBlockMaxWeight = 55, // Uint32[ceil(entries / COMPLETION_BLOCK_SIZE)]: top-k skips blocks below the k-th best
  // field level, format 2: feature postings (feature-postings.ts) in place of PostingDocs / PostingFreqs
  // (and of BlockMinNorm, which features have no use for)
  FeatureBlockOffsets = 60, // Uint32[blocks + 1]: byte offset of each block in FeaturePacked
  FeaturePacked = 61, // Uint8 (length a multiple of 4): the blocks, doc gaps and weight codes in 1, 2 or 4 bytes
  // field level, format 3: text / keyword / completion postings (packed-postings.ts) in place of
  // PostingDocs / PostingFreqs, and positions in the narrowest type that holds them
  PostingBlockOffsets = 62, // Uint32[blocks + 1]: byte offset of each block in PostingPacked
  PostingPacked = 63, // Uint8: the blocks, doc gaps and freqs in 0, 1, 2 or 4 bytes
  Positions8 = 64, // Uint8[sum of freqs]: positions when the field's largest is < 2^8
  Positions16 = 65, // Uint16[sum of freqs]: positions when the field's largest is < 2^16
  // field level, format 5: BlockImpactFreqs in the narrowest type that holds the field's largest impact freq
  BlockImpactFreqs8 = 66, // Uint8[blocks × IMPACTS_PER_BLOCK]
  BlockImpactFreqs16 = 67, // Uint16[blocks × IMPACTS_PER_BLOCK]
  // field level, format 6: BlockMaxFreq in the narrowest type that holds the field's largest
  BlockMaxFreq8 = 68, // Uint8[blocks]
  BlockMaxFreq16 = 69, // Uint16[blocks]
  // field level: dense_vector values (vector-sections.ts). Sections added without a format bump:
  // segments without vector fields are unchanged, so older segments still read.
  VectorFloat32 = 70, // Float32[maxDoc × dims]: doc d's vector at [d × dims, (d + 1) × dims); zeros where the doc has none (DocsWithField says which)
  VectorInt8 = 71, // Int8[maxDoc × dims]: the same for element_type byte
  VectorMagnitude = 72, // Float32[maxDoc]: each doc's Euclidean norm, cosine fields only (cosine scoring is then one dot product per doc)
}

/** Completion entries per block-max weight: small, since a prefix range may be short. */
export const COMPLETION_BLOCK_SIZE = 64;

/** `features`: sparse_vector / rank_features — terms are feature names, freqs encoded weights
 *  (feature-weights.ts), no norms, positions or doc values. `completion`: terms are analyzed
 *  forms, postings docs only, plus the completion entry sections. `vector`: dense_vector — no
 *  postings or doc values, the VectorFloat32 / VectorInt8 (and VectorMagnitude) sections. */
export type FieldStructure = 'text' | 'keyword' | 'numeric' | 'features' | 'completion' | 'vector';

/** Per-field metadata stored in the segment's info JSON. */
export interface SegmentFieldInfo {
  readonly name: string;
  /** The mapping type when the segment was written (text, keyword, long, date, …). */
  readonly type: string;
  readonly structure: FieldStructure;
  /** Postings exist (the field is searchable). */
  readonly indexed: boolean;
  readonly hasFreqs: boolean;
  readonly hasPositions: boolean;
  readonly hasNorms: boolean;
  readonly hasDocValues: boolean;
  readonly termCount: number;
  /** Documents with at least one term (Lucene `Terms.getDocCount`, the N of BM25 idf); for fields
   *  without postings, documents with a value. */
  readonly docCount: number;
  readonly sumTotalTermFreq: number;
  readonly sumDocFreq: number;
  /** dense_vector fields: the vectors' dimension count (every vector of the field in the segment has it). */
  readonly dims?: number;
}

export interface SegmentInfo {
  readonly maxDoc: number;
  readonly fields: readonly SegmentFieldInfo[];
}
