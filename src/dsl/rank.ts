/**
 * The 8.9–8.13 hybrid form (ES SearchSourceBuilder `sub_searches`, RRFRankBuilder `rank: {rrf}`,
 * deprecated since 8.14 for retrievers) and the validation ES runs once the whole request is known
 * (SearchRequest.validate for `rank`, CompoundRetrieverBuilder.validate for an rrf retriever): it
 * needs the final `size`, which URL parameters may still change after the body is parsed.
 */
import { ActionRequestValidationError, NamedObjectNotFoundError, ParsingError, XContentParseError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { forEachEntry, isObject, mapItems, readInt, within } from './parse-helpers.js';
import type { QueryNode } from './query-nodes.js';
import { parseQuery } from './queries/registry.js';
import { checkRankConstant, DEFAULT_RANK_CONSTANT, DEFAULT_RANK_WINDOW_SIZE, type CompoundNode, type Fusion, type RrfNode } from './retriever.js';

export interface RrfRank {
  readonly rankWindowSize: number;
  readonly rankConstant: number;
  readonly windowSizeName: 'window_size' | 'rank_window_size';
}

/** `rank: { "rrf": { "rank_window_size" | "window_size", "rank_constant" } }`. */
export function parseRank(v: unknown): RrfRank {
  const body = v as Record<string, unknown>;
  const keys = Object.keys(body);
  if (keys.length === 0) throw new ParsingError('expected a rank name, but found token [END_OBJECT] for [rank]');
  if (keys.length > 1) {
    return within(keys[1], () => {
      throw new ParsingError('expected one rank name, but found multiple for [rank]', undefined, 'key');
    });
  }
  const name = keys[0];
  return within(name, () => {
    if (name !== 'rrf') throw new NamedObjectNotFoundError(`unknown field [${name}]`);
    const params = body[name];
    if (!isObject(params)) throw new XContentParseError(`[rrf] Expected START_OBJECT but was: ${tokenName(params)}`);
    const r = { rankWindowSize: DEFAULT_RANK_WINDOW_SIZE, rankConstant: DEFAULT_RANK_CONSTANT, windowSizeName: 'rank_window_size' as RrfRank['windowSizeName'] };
    forEachEntry(params, (k, p) => {
      if (k === 'rank_window_size' || k === 'window_size') {
        r.rankWindowSize = readInt('rrf', k, p);
        r.windowSizeName = k;
      } else if (k === 'rank_constant') r.rankConstant = readInt('rrf', k, p);
      else throw new XContentParseError(`[rrf] unknown field [${k}]`, undefined, 'key');
    });
    checkRankConstant(r.rankConstant);
    return r;
  });
}

/** `sub_searches: [{ "query": {…} }, …]` (ES SubSearchSourceBuilder). */
export function parseSubSearches(v: unknown): QueryNode[] {
  return mapItems(v, (item) => {
    if (!isObject(item)) throw new XContentParseError(`malformed query within the [sub_searches] field; found ${tokenName(item)}`);
    let query: QueryNode | null = null;
    forEachEntry(item, (k, q) => {
      if (k === 'query') query = parseQuery(q);
      else throw new ParsingError(`[sub_searches] unknown field [${k}]`, undefined, 'key');
    });
    if (query === null) throw new ParsingError('[sub_searches] requires a [query]');
    return query;
  });
}

/** The legacy request as a fusion tree: one standard leaf per sub-search, the request's `min_score` on each. */
export function legacyFusion(queries: readonly QueryNode[], rank: RrfRank, minScore: number | null, conflicts: readonly string[], sizeGiven: boolean): Fusion {
  const root: RrfNode = {
    kind: 'rrf', rankWindowSize: rank.rankWindowSize, rankConstant: rank.rankConstant,
    retrievers: queries.map((query) => ({ kind: 'standard', query, minScore })),
    weights: queries.map(() => 1),
  };
  return { root, legacy: true, windowSizeName: rank.windowSizeName, conflicts, sizeGiven };
}

/** What validation needs besides the fusion itself: the final paging and sort. */
export interface FusionRequestView {
  readonly fusion: Fusion | null;
  readonly size: number;
  readonly sort: readonly unknown[] | null;
}

/**
 * ES's request validation for fused searches, every failed check listed in one
 * `action_request_validation_exception`, as ES collects them.
 */
export function validateFusion(req: FusionRequestView): void {
  const f = req.fusion;
  if (f === null) return;
  const errors: string[] = [];
  if (f.legacy) {
    // SearchRequest.validate (8.8–8.15), in its order.
    if (req.size === 0) errors.push('[rank] requires [size] greater than [0]');
    if (req.size > f.root.rankWindowSize) {
      errors.push(`[rank] requires [${f.windowSizeName}: ${f.root.rankWindowSize}] be greater than or equal to [size: ${req.size}]`);
    }
    if (f.root.retrievers.length < 2) {
      errors.push('[rank] requires a minimum of [2] result sets using a combination of sub searches and/or knn searches');
    }
    const conflicts = req.sort !== null ? [...f.conflicts, 'sort'] : f.conflicts;
    for (const c of RANK_CONFLICT_ORDER) {
      if (!conflicts.includes(c)) continue;
      errors.push(c === 'profile' ? '[rank] requires [profile] is [false]' : `[rank] cannot be used with [${c}]`);
    }
  } else {
    if (req.sort !== null) errors.push('cannot specify [retriever] and [sort]');
    // CompoundRetrieverBuilder.validate compares the request's size as given (-1 when absent) with
    // every compound retriever's window; the default size equals the default window.
    const walk = (n: CompoundNode) => {
      if ((f.sizeGiven || req.size !== DEFAULT_RANK_WINDOW_SIZE) && req.size > n.rankWindowSize) {
        errors.push(`[${n.kind}] requires [rank_window_size: ${n.rankWindowSize}] be greater than or equal to [size: ${req.size}]`);
      }
      for (const c of n.retrievers) if (c.kind !== 'standard') walk(c);
    };
    walk(f.root);
  }
  if (errors.length > 0) throw new ActionRequestValidationError(errors);
}

/** The members SearchRequest.validate names as incompatible with `rank`, in its order. */
export const RANK_CONFLICT_ORDER = ['rescore', 'sort', 'collapse', 'suggest', 'highlighter', 'point in time', 'profile'] as const;
