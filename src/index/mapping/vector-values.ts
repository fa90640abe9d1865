/**
 * A `dense_vector` value of a document → its vector, validated as ES DenseVectorFieldMapper's
 * ElementType parsers do, with their messages: dimensions against the mapping, float elements
 * finite, byte elements integers in [-128, 127] (or a hex string), cosine vectors not zero,
 * dot_product float vectors of unit length. Elements are read as Java floats (Jackson's
 * floatValue) and the squared magnitude summed in float, so the tolerance checks see what ES sees.
 */
import { EsError, IllegalArgumentError, previewInput } from '../../errors/index.js';
import { javaFloatToString } from '../../common/float-json.js';
import type { DenseVectorOptions } from './types.js';

/** One document's vector, as the segment builder stores it. */
export class DenseVector {
  constructor(
    readonly values: Float32Array | Int8Array,
    /** Euclidean norm (float), for cosine fields' VectorMagnitude section. */
    readonly magnitude: number,
  ) {}
}

/** ES DenseVectorFieldMapper.EPS: how far a dot_product vector's squared magnitude may be from 1. */
const UNIT_EPS = Math.fround(1e-4);
const INT_MAX = 0x7fffffff;

/** Where the vector sits, for the messages that name it. */
export interface VectorSite {
  /** The field's full path. */
  readonly path: string;
  /** ES DocumentParserContext.documentDescription: "document with id '1'". */
  readonly doc: string;
  /** The vector's dims: the mapping's, or (first document) its own length. */
  readonly dims: number;
  /** Whether the value is the last member of its object: what ES's token loop meets after a scalar. */
  readonly last: boolean;
}

/** ES XContent token names, for "expecting token of type [VALUE_NUMBER] but found [x]". */
function tokenOf(v: unknown): string {
  if (v === null) return 'VALUE_NULL';
  if (Array.isArray(v)) return 'START_ARRAY';
  switch (typeof v) {
    case 'number': return 'VALUE_NUMBER';
    case 'string': return 'VALUE_STRING';
    case 'boolean': return 'VALUE_BOOLEAN';
    default: return 'START_OBJECT';
  }
}

function expectingNumber(found: string): EsError {
  return new EsError('parsing_exception', `Failed to parse object: expecting token of type [VALUE_NUMBER] but found [${found}]`, 400);
}

function dimensionsExceeded(site: VectorSite): EsError {
  return new IllegalArgumentError(`The [dense_vector] field [${site.path}] in doc [${site.doc}] has more dimensions than defined in the mapping [${site.dims}]`);
}

function checkDimensionsMatch(site: VectorSite, count: number): void {
  if (count !== site.dims) {
    throw new IllegalArgumentError(`The [dense_vector] field [${site.path}] in doc [${site.doc}] has a different number of dimensions [${count}] than defined in the mapping [${site.dims}]`);
  }
}

/** ES ElementType.appendErrorElements: the first five elements, then ", ..." from five on. */
function preview(values: Float32Array | Int8Array): string {
  const shown: string[] = [];
  for (let i = 0; i < Math.min(5, values.length); i++) shown.push(values instanceof Int8Array ? String(values[i]) : javaFloatToString(values[i]));
  return ` Preview of invalid vector: [${shown.join(', ')}${values.length >= 5 ? ', ...' : ''}]`;
}

function invalid(message: string, values: Float32Array | Int8Array): EsError {
  return new IllegalArgumentError(message + preview(values));
}

/** Σ v² as Java sums floats: each product and each sum rounded to float. */
function squaredMagnitude(values: Float32Array | Int8Array): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum = Math.fround(sum + Math.fround(values[i] * values[i]));
  return sum;
}

/** ES ElementType.FLOAT: finite elements; a finite magnitude; dot_product unit length; cosine not zero. */
function parseFloatVector(options: DenseVectorOptions, site: VectorSite, value: unknown): Float32Array {
  if (!Array.isArray(value)) {
    // ES's loop reads the tokens after a scalar or an object's start as the vector's elements.
    throw expectingNumber(value !== null && typeof value === 'object' ? (Object.keys(value).length > 0 ? 'FIELD_NAME' : 'END_OBJECT') : site.last ? 'END_OBJECT' : 'FIELD_NAME');
  }
  const vector = new Float32Array(Math.min(value.length, site.dims));
  for (let i = 0; i < value.length; i++) {
    if (i >= site.dims) throw dimensionsExceeded(site);
    const v = value[i];
    if (typeof v !== 'number') throw expectingNumber(tokenOf(v));
    vector[i] = v;
  }
  checkDimensionsMatch(site, value.length);
  for (let i = 0; i < vector.length; i++) {
    const v = vector[i];
    if (!Number.isFinite(v)) throw invalid(`element_type [float] vectors do not support infinite values but found [${javaFloatToString(v)}] at dim [${i}];`, vector);
  }
  const sq = squaredMagnitude(vector);
  if (!Number.isFinite(sq)) throw invalid('NaN or Infinite magnitude detected, this usually means the vector values are too extreme to fit within a float.', vector);
  if (options.similarity === 'dot_product' && Math.abs(Math.fround(sq - 1)) > UNIT_EPS) {
    throw invalid('The [dot_product] similarity can only be used with unit-length vectors.', vector);
  }
  if (options.similarity === 'cosine' && sq === 0) throw invalid('The [cosine] similarity does not support vectors with zero magnitude.', vector);
  return vector;
}

/** A JSON number as ES's byte parser reads it: an int as is; anything else through floatValue and an int cast. */
function byteElement(v: number, dim: number): number {
  if (Number.isInteger(v) && Math.abs(v) <= INT_MAX) return v;
  const f = Math.fround(v);
  if (f % 1 !== 0) throw new IllegalArgumentError(`element_type [byte] vectors only support non-decimal values but found decimal value [${javaFloatToString(f)}] at dim [${dim}];`);
  return f >= INT_MAX ? INT_MAX : f <= -INT_MAX - 1 ? -INT_MAX - 1 : f;
}

/** java.util.HexFormat.parseHex. */
function parseHex(text: string): Int8Array {
  if (text.length % 2 !== 0) throw new IllegalArgumentError(`string length not even: ${text.length}`);
  const out = new Int8Array(text.length / 2);
  for (let i = 0; i < text.length; i++) {
    const digit = parseInt(text[i], 16);
    if (Number.isNaN(digit)) {
      const c = text.codePointAt(i)!;
      throw new EsError('number_format_exception', `not a hexadecimal digit: "${String.fromCodePoint(c)}" = ${c}`, 400);
    }
    if (i % 2 === 0) out[i >> 1] = digit << 4;
    else out[i >> 1] |= digit;
  }
  return out;
}

/** ES ElementType.BYTE: integers in [-128, 127] (or a hex string of the bytes); cosine not zero. */
function parseByteVector(options: DenseVectorOptions, site: VectorSite, value: unknown): Int8Array {
  let vector: Int8Array;
  if (typeof value === 'string') {
    vector = parseHex(value);
    checkDimensionsMatch(site, vector.length);
  } else if (Array.isArray(value)) {
    vector = new Int8Array(Math.min(value.length, site.dims));
    for (let i = 0; i < value.length; i++) {
      if (i >= site.dims) throw dimensionsExceeded(site);
      const v = value[i];
      if (typeof v !== 'number') throw expectingNumber(tokenOf(v));
      const b = byteElement(v, i);
      if (b < -128 || b > 127) throw new IllegalArgumentError(`element_type [byte] vectors only support integers between [-128, 127] but found [${b}] at dim [${i}];`);
      vector[i] = b;
    }
    checkDimensionsMatch(site, value.length);
  } else {
    const text = typeof value === 'object' ? null : String(value);
    throw new EsError('parsing_exception', `Unsupported type [${tokenOf(value)}] for provided value [${text === null ? 'null' : previewInput(text)}]`, 400);
  }
  if (options.similarity === 'cosine' && squaredMagnitude(vector) === 0) throw invalid('The [cosine] similarity does not support vectors with zero magnitude.', vector);
  return vector;
}

/**
 * How many dimensions a first vector has (ES ElementType.parseDimensionCount: an array's length,
 * a hex string's bytes for byte vectors); null when the value is no vector at all (then parsing it
 * gives ES's error).
 */
export function vectorDimensionCount(options: DenseVectorOptions, value: unknown): number | null {
  if (Array.isArray(value)) return value.length;
  if (options.elementType === 'byte' && typeof value === 'string') return value.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(value) ? value.length / 2 : null;
  return null;
}

/** The vector of a (non-null) dense_vector value; throws ES's error (the document parser wraps it). */
export function parseDenseVector(options: DenseVectorOptions, site: VectorSite, value: unknown): DenseVector {
  const values = options.elementType === 'byte' ? parseByteVector(options, site, value) : parseFloatVector(options, site, value);
  return new DenseVector(values, Math.fround(Math.sqrt(squaredMagnitude(values))));
}
