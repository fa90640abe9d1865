/**
 * ES DenseVectorFieldMapper's parameters (8.x, indices created on the current version): `dims`,
 * `element_type`, `index`, `similarity`, `index_options`, `meta`, validated with ES's messages and
 * kept in the mapper's parameter order with the defaults ES always serializes filled in (`index`,
 * `similarity` when not null, `index_options` when not null: `int8_hnsw` for indexed float
 * vectors), so GET _mapping renders what ES renders and an update that spells out a default does
 * not conflict with one that left it out. `index_options` are stored and rendered only: this
 * server scores vectors exactly (no HNSW graph, no quantization).
 */
import { IllegalArgumentError, MapperParsingError, NumberFormatError, previewInput } from '../../errors/index.js';
import { isPlainObject } from '../../common/json.js';
import { javaFloatToString } from '../../common/float-json.js';
import type { DenseVectorOptions, VectorElementType, VectorSimilarity } from './types.js';

/** ES DenseVectorFieldMapper.MAX_DIMS_COUNT. */
export const MAX_VECTOR_DIMS = 4096;
export const VECTOR_SIMILARITIES: readonly VectorSimilarity[] = ['l2_norm', 'cosine', 'dot_product', 'max_inner_product'];
/** Lucene99HnswVectorsFormat: DEFAULT_MAX_CONN, DEFAULT_BEAM_WIDTH and their maximums. */
const DEFAULT_M = 16;
const DEFAULT_EF_CONSTRUCTION = 100;
const MAX_M = 512;
const MAX_EF_CONSTRUCTION = 3200;

type IndexType = 'hnsw' | 'int8_hnsw' | 'int4_hnsw' | 'flat' | 'int8_flat' | 'int4_flat';
const INDEX_TYPES: ReadonlySet<string> = new Set<IndexType>(['hnsw', 'int8_hnsw', 'int4_hnsw', 'flat', 'int8_flat', 'int4_flat']);
/** ES VectorIndexType values this server does not accept (binary quantization). */
const NOT_YET_INDEX_TYPES: ReadonlySet<string> = new Set(['bbq_hnsw', 'bbq_flat']);

/** Stored index_options, as ES renders them (each type's toXContent). */
type IndexOptions = Readonly<Record<string, unknown>> & { readonly type: IndexType };

export function checkElementType(v: unknown): VectorElementType {
  if (v === 'float' || v === 'byte') return v;
  if (v === 'bit') throw new MapperParsingError('[element_type] [bit] is not supported by this server yet');
  throw new MapperParsingError(`invalid element_type [${previewInput(String(v))}]; available types are [float, byte, bit]`);
}

/** `dims` must be a JSON integer (ES: `o instanceof Integer`); its range is checked with the field's name. */
function checkDims(v: unknown, name: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || Math.abs(v) > 0x7fffffff) {
    throw new MapperParsingError(`Property [dims] on field [${name}] must be an integer but got [${previewInput(String(v))}]`);
  }
  if (v < 1 || v > MAX_VECTOR_DIMS) {
    throw new MapperParsingError(`The number of dimensions for field [${name}] should be in the range [1, ${MAX_VECTOR_DIMS}] but was [${v}]`);
  }
  return v;
}

/** ES Parameter.enumParam: `null` is accepted (and then required not to be null when indexed). */
export function checkSimilarity(v: unknown): VectorSimilarity | null {
  if (v === null) return null;
  if ((VECTOR_SIMILARITIES as readonly unknown[]).includes(v)) return v as VectorSimilarity;
  throw new MapperParsingError(`Unknown value [${previewInput(String(v))}] for field [similarity] - accepted values are [${VECTOR_SIMILARITIES.join(', ')}]`);
}

/** A mapping's NumberFormatException, as the mapping parser reports it (wrapped, with its reason). */
function numberFormat(text: string): MapperParsingError {
  const cause = new NumberFormatError(text);
  return new MapperParsingError(cause.reason, cause);
}

/** XContentMapValues.nodeIntegerValue: a number's int value, else Integer.parseInt of its text. */
function nodeInteger(v: unknown): number {
  if (typeof v === 'number') return Math.trunc(v);
  const text = String(v);
  if (!/^[+-]?\d{1,10}$/.test(text) || Math.abs(Number(text)) > 0x7fffffff) throw numberFormat(text);
  return Number(text);
}

/** XContentMapValues.nodeDoubleValue, as the float the index options keep. */
function nodeFloat(v: unknown): number {
  const n = typeof v === 'number' ? v : Number(String(v).trim());
  if (typeof v === 'boolean' || Number.isNaN(n) || (typeof v === 'string' && v.trim() === '')) throw numberFormat(String(v));
  return n;
}

function checkHnswParams(m: number, efConstruction: number): void {
  if (m <= 0 || m > MAX_M) throw new MapperParsingError(`maxConn must be positive and less than or equal to ${MAX_M}; maxConn=${m}`);
  if (efConstruction <= 0 || efConstruction > MAX_EF_CONSTRUCTION) {
    throw new MapperParsingError(`beamWidth must be positive and less than or equal to ${MAX_EF_CONSTRUCTION}; beamWidth=${efConstruction}`);
  }
}

/** Lucene's scalar quantization: 0 (dynamic quantiles) or a confidence interval in [0.9, 1]. */
function checkConfidenceInterval(ci: number): void {
  const f = Math.fround(ci);
  if (f !== 0 && !(f >= Math.fround(0.9) && f <= 1)) {
    throw new MapperParsingError(`confidenceInterval must be between 0.9 and 1.0; confidenceInterval=${javaFloatToString(f)}`);
  }
}

/** ES DenseVectorFieldMapper.parseIndexOptions and each VectorIndexType's parser. */
function checkIndexOptions(v: unknown, name: string, unsupported: (where: string, rest: Record<string, unknown>) => Error): IndexOptions | null {
  if (v === null) return null;
  if (!isPlainObject(v)) throw new MapperParsingError(`[index_options] on field [${name}] must be an object`);
  const rest: Record<string, unknown> = { ...v };
  const typeNode = rest.type;
  delete rest.type;
  if (typeNode === undefined || typeNode === null) throw new MapperParsingError('[index_options] requires field [type] to be configured');
  const type = String(typeNode);
  if (NOT_YET_INDEX_TYPES.has(type)) throw new MapperParsingError(`[index_options] of type [${type}] is not supported by this server yet`);
  if (!INDEX_TYPES.has(type)) throw new MapperParsingError(`Unknown vector index options type [${previewInput(type)}] for field [${name}]`);
  const take = (k: string): unknown => {
    const x = rest[k];
    delete rest[k];
    return x ?? undefined;
  };
  const out: Record<string, unknown> = { type };
  if (type.endsWith('_hnsw') || type === 'hnsw') {
    const m = take('m');
    const ef = take('ef_construction');
    out.m = m === undefined ? DEFAULT_M : nodeInteger(m);
    out.ef_construction = ef === undefined ? DEFAULT_EF_CONSTRUCTION : nodeInteger(ef);
  }
  if (type.startsWith('int')) {
    const ci = take('confidence_interval');
    // int4 defaults to dynamic quantiles (0) and always renders it; int8 renders it only when given.
    if (ci !== undefined) out.confidence_interval = nodeFloat(ci);
    else if (type.startsWith('int4')) out.confidence_interval = 0;
  }
  if (Object.keys(rest).length > 0) throw unsupported(`Mapping definition for [${name}]`, rest);
  if (out.m !== undefined) checkHnswParams(out.m as number, out.ef_construction as number);
  if (out.confidence_interval !== undefined) checkConfidenceInterval(out.confidence_interval as number);
  return out as IndexOptions;
}

/** `{type=int8_hnsw, m=16, …}`: how ES's IndexOptions print in a merge conflict. */
function indexOptionsText(o: unknown): string {
  if (o === undefined || o === null) return 'null';
  const io = o as IndexOptions;
  const parts = [`type=${io.type}`];
  if (io.m !== undefined) parts.push(`m=${String(io.m)}`, `ef_construction=${String(io.ef_construction)}`);
  if (io.type.startsWith('int')) parts.push(`confidence_interval=${io.confidence_interval === undefined ? 'null' : javaFloatToString(io.confidence_interval as number)}`);
  return `{${parts.join(', ')}}`;
}

/**
 * ES IndexOptions.updatableTo: flat options may move to any other, an HNSW graph only to one with at
 * least as many connections (and the same quantization confidence), never back to flat.
 */
function indexOptionsUpdatable(from: IndexOptions, to: IndexOptions): boolean {
  const mAtLeast = ((to.m as number | undefined) ?? 0) >= ((from.m as number | undefined) ?? Infinity);
  switch (from.type) {
    case 'flat': return true;
    case 'int8_flat': return to.type !== 'flat';
    case 'int4_flat': return to.type === 'int4_flat' || to.type === 'hnsw' || to.type === 'int8_hnsw' || to.type === 'int4_hnsw';
    case 'hnsw': return (to.type === 'hnsw' || to.type === 'int8_hnsw' || to.type === 'int4_hnsw') && mAtLeast;
    case 'int8_hnsw':
      if (to.type === 'int8_hnsw') return mAtLeast && (from.confidence_interval === undefined || from.confidence_interval === to.confidence_interval);
      return to.type === 'int4_hnsw' && mAtLeast;
    case 'int4_hnsw': return to.type === 'int4_hnsw' && mAtLeast && from.confidence_interval === to.confidence_interval;
  }
}

/** Validated parameters (parameters.ts) → the stored form: ES's build-time validators, then its serialization. */
export function denseVectorParams(
  given: Readonly<Record<string, unknown>>, name: string, unsupported: (where: string, rest: Record<string, unknown>) => Error,
): Record<string, unknown> {
  const dims = given.dims === undefined ? undefined : checkDims(given.dims, name);
  const elementType = (given.element_type as VectorElementType | undefined) ?? 'float';
  const indexed = given.index !== false;
  const similarityGiven = given.similarity !== undefined;
  const similarity = similarityGiven ? (given.similarity as VectorSimilarity | null) : indexed ? 'cosine' : null;
  const optionsGiven = given.index_options !== undefined && given.index_options !== null;
  const indexOptions = optionsGiven
    ? checkIndexOptions(given.index_options, name, unsupported)
    : indexed && elementType === 'float' ? { type: 'int8_hnsw', m: DEFAULT_M, ef_construction: DEFAULT_EF_CONSTRUCTION } : null;
  if (indexed) {
    if (similarity === null) throw new MapperParsingError('Field [index] requires field [similarity] to be configured and not null');
  } else {
    if (similarityGiven && similarity !== null) throw new MapperParsingError('Field [similarity] can only be specified for a field of type [dense_vector] when it is indexed');
    if (optionsGiven) throw new MapperParsingError('Field [index_options] can only be specified for a field of type [dense_vector] when it is indexed');
  }
  if (indexOptions !== null) {
    const dimsError = dims === undefined ? null : indexDimensionError(indexOptions, dims);
    if (dimsError !== null) throw new MapperParsingError(dimsError);
    if (elementType !== 'float' && indexOptions.type.startsWith('int')) {
      throw new MapperParsingError(`[element_type] cannot be [${elementType}] when using index type [${indexOptions.type}]`);
    }
  }
  const out: Record<string, unknown> = {};
  if (elementType !== 'float') out.element_type = elementType;
  if (dims !== undefined) out.dims = dims;
  out.index = indexed;
  if (similarity !== null) out.similarity = similarity;
  if (indexOptions !== null) out.index_options = indexOptions;
  if (given.meta !== undefined) out.meta = given.meta;
  return out;
}

/** int4 quantization packs two dimensions a byte (IndexOptions.validateDimension); the message, or null when fine. */
export function indexDimensionError(options: unknown, dims: number): string | null {
  const type = (options as IndexOptions | undefined)?.type;
  return (type === 'int4_hnsw' || type === 'int4_flat') && dims % 2 !== 0 ? `${type} only supports even dimensions; provided=${dims}` : null;
}

/**
 * A dense_vector parameter's merge (ES Parameter merge validators): `dims` may go from unset to a
 * value once (the first document's), index_options per updatableTo, meta freely; everything else
 * conflicts. Returns the merged value, or the conflict's text.
 */
export function mergeDenseVectorParam(key: string, current: unknown, update: unknown): { value: unknown } | { conflict: string } {
  if (key === 'meta') return { value: update };
  if (key === 'dims' && current === undefined) return { value: update };
  if (key === 'index_options' && current !== undefined && update !== undefined && indexOptionsUpdatable(current as IndexOptions, update as IndexOptions)) {
    return { value: update };
  }
  const text = (v: unknown): string => {
    if (key === 'index_options') return indexOptionsText(v);
    if (v === undefined) return key === 'element_type' ? 'float' : 'null';
    return String(v);
  };
  return { conflict: `Cannot update parameter [${key}] from [${text(current)}] to [${text(update)}]` };
}

/** ES DenseVectorFieldType.docValueFormat, which aggregations and docvalue_fields ask first. */
export function denseVectorDocValuesError(path: string): IllegalArgumentError {
  return new IllegalArgumentError(`Field [${path}] of type [dense_vector] doesn't support docvalue_fields or aggregations`);
}

/** ES DenseVectorFieldMapper.Builder.getParameters order, in which the parameters serialize. */
export const DENSE_VECTOR_PARAMETERS: readonly string[] = ['element_type', 'dims', 'index', 'similarity', 'index_options', 'meta'];

/** Merged parameters in serialization order (a merge sets `dims` after the others were copied). */
export function inParameterOrder(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of DENSE_VECTOR_PARAMETERS) if (params[k] !== undefined) out[k] = params[k];
  return out;
}

/** The resolved options of a dense_vector field's stored parameters. */
export function denseVectorOptions(p: Readonly<Record<string, unknown>>): DenseVectorOptions {
  return {
    dims: p.dims === undefined ? null : (p.dims as number),
    elementType: (p.element_type as VectorElementType | undefined) ?? 'float',
    similarity: (p.similarity as VectorSimilarity | undefined) ?? null,
    indexed: p.index !== false,
  };
}
