import type { Similarity } from '../similarity.js';
import type { IndexTextSettings } from '../text-analysis.js';

/**
 * The mapping model: a tree of object mappers and field mappers, as ES's `Mapping`/`ObjectMapper`/
 * `FieldMapper`. Parameters are kept as given (validated) so GET _mapping renders them back, and a
 * flattened `ResolvedField` per full path carries what indexing and search need.
 */

export type DynamicMode = true | false | 'strict' | 'runtime';

export const NUMERIC_TYPES = ['long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float', 'unsigned_long'] as const;
export type NumericType = (typeof NUMERIC_TYPES)[number];
/** Feature fields: an object of feature → positive float per document, indexed as postings whose
 *  frequency is the weight's top bits (Lucene FeatureField), scored by sparse dot products. */
export const FEATURE_TYPES = ['sparse_vector', 'rank_features'] as const;
export type FeatureType = (typeof FEATURE_TYPES)[number];
export type FieldType = 'text' | 'keyword' | 'date' | 'boolean' | NumericType | FeatureType | 'completion' | 'search_as_you_type' | 'dense_vector';

/** ES DenseVectorFieldMapper.VectorSimilarity. */
export type VectorSimilarity = 'cosine' | 'dot_product' | 'l2_norm' | 'max_inner_product';
/** ES DenseVectorFieldMapper.ElementType (`bit` is refused by this server). */
export type VectorElementType = 'float' | 'byte';

/** A `dense_vector` field's options, defaults filled (dense-vector-mapping.ts). */
export interface DenseVectorOptions {
  /** null until the first document sets it (ES 8.11+ infers dims from the first vector). */
  readonly dims: number | null;
  readonly elementType: VectorElementType;
  /** ES's default is cosine when `index: true`; null when `index: false` and none is given. */
  readonly similarity: VectorSimilarity | null;
  /** The `index` parameter (ES 8.11+ default true). This server always searches exactly. */
  readonly indexed: boolean;
}

/** Analyzed full text with positions and norms, searched by BM25: `text` and `search_as_you_type`
 *  (whose subfields are text fields with shingled analysis). */
export function isAnalyzedTextType(t: FieldType): boolean {
  return t === 'text' || t === 'search_as_you_type';
}

export function isFeatureType(t: string): t is FeatureType {
  return t === 'sparse_vector' || t === 'rank_features';
}

export interface FieldMapper {
  readonly kind: 'field';
  readonly type: FieldType;
  /** Validated parameters exactly as given, rendered back by GET _mapping. */
  readonly params: Readonly<Record<string, unknown>>;
  /** Multi-fields (`fields`): indexed from the same value under `<path>.<name>`. */
  readonly fields: ReadonlyMap<string, FieldMapper>;
}

export interface ObjectMapper {
  readonly kind: 'object';
  /** `null` = inherit from the parent (root: true). */
  readonly dynamic: DynamicMode | null;
  readonly enabled: boolean;
  readonly properties: ReadonlyMap<string, Mapper>;
}

export type Mapper = FieldMapper | ObjectMapper;

export interface SourceConfig {
  readonly enabled: boolean;
  readonly includes: readonly string[];
  readonly excludes: readonly string[];
}

export interface RootMapping extends ObjectMapper {
  readonly source: SourceConfig | null;
  readonly dateDetection: boolean;
  readonly numericDetection: boolean;
  readonly dynamicDateFormats: readonly string[];
  readonly meta: Readonly<Record<string, unknown>> | null;
  /**
   * Root parameters given explicitly (ES's `Explicit<T>`): only these override on a mapping merge,
   * and only these are rendered.
   */
  readonly explicitParams: ReadonlySet<RootParam>;
}

export type RootParam = 'date_detection' | 'numeric_detection' | 'dynamic_date_formats';

/** What indexing and search need to know about one concrete field path. */
export interface ResolvedField {
  readonly path: string;
  readonly type: FieldType;
  /** The field is searchable (`index: true`). */
  readonly indexed: boolean;
  readonly docValues: boolean;
  /** text only: norms and positions are indexed. */
  readonly norms: boolean;
  /** Analyzer names, looked up in `analysis` (field-analyzers.ts); `default*` names follow the index's defaults. */
  readonly analyzer: string;
  readonly searchAnalyzer: string;
  readonly searchQuoteAnalyzer: string;
  /**
   * The index's analysis and similarity settings, as plain data: resolved fields travel to workers
   * (highlighting), so analyzers are looked up through field-analyzers.ts, not held here.
   */
  readonly text: IndexTextSettings;
  /** keyword `normalizer` name, applied to values and query terms alike; null = values as they are. */
  readonly normalizer: string | null;
  /** How matches on the field score (`similarity`, else the index's `default`, else BM25). */
  readonly similarity: Similarity;
  readonly ignoreAbove: number;
  readonly nullValue: unknown;
  readonly coerce: boolean;
  readonly format: string;
  readonly scalingFactor: number;
  readonly positionIncrementGap: number;
  /** True for multi-fields (their values come from the parent field). */
  readonly isMultiField: boolean;
  /** rank_features `positive_score_impact` (false stores 1 / value); true for other types. */
  readonly positiveScoreImpact: boolean;
  /** `completion` fields: how inputs become analyzed forms (completion-form.ts); null for other types. */
  readonly completion: CompletionOptions | null;
  /** The field's part in a search_as_you_type structure (search-as-you-type.ts); null for other fields. */
  readonly searchAsYouType: SearchAsYouTypeStructure | null;
  /** `dense_vector` fields: dims, element type and similarity; null for every other type. */
  readonly vector: DenseVectorOptions | null;
}

/**
 * ES SearchAsYouTypeFieldMapper: the root field (its own analysis), `<root>._<n>gram` for n in
 * 2..max_shingle_size (shingles of n tokens) and `<root>._index_prefix` (edge n-grams of shingles
 * of max_shingle_size tokens, short shingles at the end of a value included).
 */
export interface SearchAsYouTypeStructure {
  readonly role: 'root' | 'shingle' | 'index_prefix';
  /** Path of the search_as_you_type field. */
  readonly root: string;
  readonly maxShingleSize: number;
  /** Tokens per shingle in this field's analysis: 0 for the root, n for `._ngram`, max for `._index_prefix`. */
  readonly shingleSize: number;
}

/** ES CompletionFieldMapper's analysis parameters, defaults filled. */
export interface CompletionOptions {
  readonly preserveSeparators: boolean;
  readonly preservePositionIncrements: boolean;
  readonly maxInputLength: number;
}

export const DEFAULT_DATE_FORMAT = 'strict_date_optional_time||epoch_millis';
export const DEFAULT_DYNAMIC_DATE_FORMATS = ['strict_date_optional_time', 'yyyy/MM/dd HH:mm:ss Z||yyyy/MM/dd Z'];
/** ES TextFieldMapper: positions of consecutive array values are this far apart. */
export const DEFAULT_POSITION_INCREMENT_GAP = 100;
/** ES KeywordFieldMapper default `ignore_above` (no limit). */
export const NO_IGNORE_ABOVE = 2147483647;
