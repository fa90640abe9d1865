/**
 * The three spellings of a kNN search, parsed into one `KnnQuery` node:
 * - the top-level `knn` member of a search (ES KnnSearchBuilder: an object or an array of them;
 *   `k` defaults to the body's `size`, checked once the whole body is read, as Builder.build(size));
 * - the `knn` query (KnnVectorQueryBuilder, 8.12+; built by a ConstructingObjectParser, so its
 *   checks fail as "Failed to build [knn] after last required field arrived");
 * - the `knn` retriever (KnnRetrieverBuilder: `k` and `num_candidates` required, plus the
 *   retriever's own `filter`, `min_score` and `_name`).
 * `num_candidates` is validated as ES does but changes nothing here: search is exact.
 */
import { IllegalArgumentError, ParsingError, XContentParseError, previewInput, type EsError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { doubleValue, forEachEntry, intValue, isObject, mapItems, parsingField, readNumber, readString, type JsonObject } from './parse-helpers.js';
import type { KnnQuery, QueryNode } from './query-nodes.js';

/** The query parser (queries/registry.ts), passed in: the registry imports this file. */
export type ParseQuery = (json: unknown) => QueryNode;

/** ES KnnSearchBuilder.NUM_CANDS_LIMIT. */
export const NUM_CANDIDATES_LIMIT = 10_000;
/** ES KnnSearchBuilder.NUM_CANDS_MULTIPLICATIVE_FACTOR. */
const NUM_CANDIDATES_FACTOR = 1.5;
/** ES DenseVectorFieldMapper.MAX_DIMS_COUNT: no field holds longer vectors. */
const MAX_QUERY_DIMS = 4096;

type Owner = 'search' | 'query' | 'retriever';

/** A kNN object as written, before its defaults and checks. */
export interface KnnBuilder {
  readonly field: string | null;
  readonly queryVector: number[] | null;
  readonly queryVectorBuilder: boolean;
  readonly k: number | null;
  readonly numCandidates: number | null;
  readonly filter: QueryNode[];
  readonly similarity: number | null;
  readonly boost: number;
  readonly name: string | null;
  /** Retriever only: its `min_score`. */
  readonly minScore: number | null;
}

const MEMBERS: Record<Owner, ReadonlySet<string>> = {
  search: new Set(['field', 'query_vector', 'query_vector_builder', 'k', 'num_candidates', 'filter', 'similarity', 'boost', '_name', 'inner_hits', 'rescore_vector']),
  query: new Set(['field', 'query_vector', 'query_vector_builder', 'k', 'num_candidates', 'filter', 'similarity', 'boost', '_name', 'rescore_vector', 'visit_percentage']),
  retriever: new Set(['field', 'query_vector', 'query_vector_builder', 'k', 'num_candidates', 'filter', 'similarity', 'min_score', '_name', 'rescore_vector']),
};

/** Members ES has that this server refuses clearly rather than ignoring. */
const NOT_YET = new Set(['query_vector_builder', 'inner_hits', 'rescore_vector', 'visit_percentage']);

/** Reads one kNN object; unknown members fail as ES's object parser fails them. */
export function readKnnBuilder(owner: Owner, body: unknown, parseQuery: ParseQuery): KnnBuilder {
  if (!isObject(body)) {
    if (owner === 'query') throw new ParsingError('[knn] query malformed, no start_object after query name');
    throw new XContentParseError(`[knn] Expected START_OBJECT but was: ${tokenName(body)}`);
  }
  const b = {
    field: null as string | null, queryVector: null as number[] | null, queryVectorBuilder: false, k: null as number | null,
    numCandidates: null as number | null, filter: [] as QueryNode[], similarity: null as number | null, boost: 1, name: null as string | null,
    minScore: null as number | null,
  };
  forEachEntry(body, (key, v) => {
    if (!MEMBERS[owner].has(key)) throw new XContentParseError(`[knn] unknown field [${previewInput(key)}]`, undefined, 'key');
    if (NOT_YET.has(key)) throw new IllegalArgumentError(`[knn] [${key}] is not supported by this server yet`);
    switch (key) {
      case 'field': b.field = readString('knn', key, v); break;
      case 'query_vector': b.queryVector = parsingField('knn', key, () => readQueryVector(v)); break;
      case 'k': b.k = parsingField('knn', key, () => intValue(v)); break;
      case 'num_candidates': b.numCandidates = parsingField('knn', key, () => intValue(v)); break;
      case 'similarity': b.similarity = Math.fround(parsingField('knn', key, () => doubleValue(v))); break;
      case 'min_score': b.minScore = readNumber('knn', key, v); break;
      case 'boost': b.boost = Math.fround(parsingField('knn', key, () => doubleValue(v))); break;
      case '_name': b.name = readString('knn', key, v); break;
      case 'filter':
        if (!isObject(v) && !Array.isArray(v)) throw new XContentParseError(`[knn] filter doesn't support values of type: ${tokenName(v)}`);
        b.filter = mapItems(v, parseQuery);
        break;
    }
  });
  if (b.boost < 0) throw new IllegalArgumentError('negative [boost] are not allowed.');
  return b;
}

/**
 * `query_vector` (ES VectorData.parseXContent): an array of numbers (or numeric strings), one
 * number, or a hex string of signed bytes. Values are float32, as ES reads them.
 */
function readQueryVector(v: unknown): number[] {
  if (typeof v === 'string') return hexBytes(v);
  if (typeof v === 'number') return [Math.fround(v)];
  if (!Array.isArray(v)) throw new ParsingError(`Unknown type [${tokenName(v)}] for parsing vector`);
  if (v.length > MAX_QUERY_DIMS) throw new IllegalArgumentError(`[query_vector] cannot have more than [${MAX_QUERY_DIMS}] dimensions, found [${v.length}]`);
  return v.map((x, i) => {
    if (typeof x !== 'number' && typeof x !== 'string') throw new ParsingError(`Type [${tokenName(x)}] not supported for query vector at dim [${i}]`);
    return Math.fround(doubleValue(x));
  });
}

/** Java HexFormat.parseHex: pairs of hex digits, each a signed byte. */
function hexBytes(s: string): number[] {
  if (s.length % 2 !== 0) throw new IllegalArgumentError(`string length not even: ${s.length}`);
  if (s.length > MAX_QUERY_DIMS * 2) throw new IllegalArgumentError(`[query_vector] cannot have more than [${MAX_QUERY_DIMS}] dimensions, found [${s.length / 2}]`);
  const out: number[] = [];
  for (let i = 0; i < s.length; i += 2) {
    const pair = s.slice(i, i + 2);
    if (!/^[0-9a-fA-F]{2}$/.test(pair)) {
      const bad = /[0-9a-fA-F]/.test(pair[0]) ? pair[1] : pair[0];
      throw new IllegalArgumentError(`not a hexadecimal digit: "${bad}" = ${bad.charCodeAt(0)}`);
    }
    const byte = parseInt(pair, 16);
    out.push(byte > 127 ? byte - 256 : byte);
  }
  return out;
}

/** The checks of KnnSearchBuilder's / KnnVectorQueryBuilder's constructors, in their order. */
function constructorChecks(owner: Owner, b: KnnBuilder, k: number | null, numCandidates: number | null): string | null {
  if (k !== null && k < 1) return '[k] must be greater than 0';
  if (owner === 'query') {
    if (numCandidates !== null && numCandidates > NUM_CANDIDATES_LIMIT) return `[num_candidates] cannot exceed [${NUM_CANDIDATES_LIMIT}]`;
    if (k !== null && numCandidates !== null && numCandidates < k) return '[num_candidates] cannot be less than [k]';
  } else {
    if (numCandidates !== null && k !== null && numCandidates < k) return '[num_candidates] cannot be less than [k]';
    if (numCandidates !== null && numCandidates > NUM_CANDIDATES_LIMIT) return `[num_candidates] cannot exceed [${NUM_CANDIDATES_LIMIT}]`;
  }
  const names = owner === 'query' ? '[query_vector] or [query_vector_builder]' : '[query_vector_builder] or [query_vector]';
  if (b.queryVector === null && !b.queryVectorBuilder) return `either ${names} must be provided`;
  return null;
}

function node(b: KnnBuilder, k: number | null, numCandidates: number | null): KnnQuery {
  return {
    kind: 'knn', field: b.field!, queryVector: b.queryVector!, k, numCandidates, filter: b.filter, similarity: b.similarity,
    boost: b.boost, name: b.name, matches: null,
  };
}

/** The `knn` query: `k` may stay null (the search's size, resolved by the coordinator). */
export function parseKnnQuery(body: unknown, parseQuery: ParseQuery): KnnQuery {
  const b = readKnnBuilder('query', body, parseQuery);
  const failed = (e: EsError) => new XContentParseError('Failed to build [knn] after last required field arrived', e, null);
  if (b.field === null) throw new IllegalArgumentError('Required [field]');
  const problem = constructorChecks('query', b, b.k, b.numCandidates);
  if (problem !== null) throw failed(new IllegalArgumentError(problem));
  return node(b, b.k, b.numCandidates);
}

/** A top-level `knn` section once the body is read: KnnSearchBuilder.Builder.build(size). */
export function buildKnnSearch(b: KnnBuilder, size: number | null): KnnQuery {
  if (b.field === null) throw new IllegalArgumentError('Required [field]');
  const k = b.k ?? (size === null || size < 0 ? 10 : size);
  const numCandidates = b.numCandidates ?? Math.round(Math.min(NUM_CANDIDATES_LIMIT, Math.fround(NUM_CANDIDATES_FACTOR * k)));
  const problem = constructorChecks('search', b, k, numCandidates);
  if (problem !== null) throw new IllegalArgumentError(problem);
  return node(b, k, numCandidates);
}

/** The top-level `knn` member: one section or an array of them (built later, with the body's size). */
export function readKnnSections(v: unknown, parseQuery: ParseQuery): KnnBuilder[] {
  return mapItems(v, (item) => readKnnBuilder('search', item, parseQuery));
}

/** A `knn` retriever: `k` and `num_candidates` are required (ConstructingObjectParser's "Required [...]"). */
export function parseKnnRetriever(body: JsonObject, parseQuery: ParseQuery): { readonly knn: KnnQuery; readonly minScore: number | null } {
  const b = readKnnBuilder('retriever', body, parseQuery);
  const missing = [b.field === null ? 'field' : null, b.k === null ? 'k' : null, b.numCandidates === null ? 'num_candidates' : null].filter((x) => x !== null);
  if (missing.length > 0) throw new IllegalArgumentError(`Required [${missing.join(', ')}]`);
  return { knn: buildKnnSearch(b, null), minScore: b.minScore };
}
