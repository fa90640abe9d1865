/**
 * URL query parameters, read the way ES's RestRequest reads them: strict booleans, integers with
 * ES's error texts, and a per-route list of accepted names (anything else is rejected with
 * "request [path] contains unrecognized parameter: [x]").
 */
import { suggestions } from '../common/did-you-mean.js';
import { IllegalArgumentError } from '../errors/index.js';
import type { RefreshPolicy } from '../cluster/index.js';
import { boolParam, parseWildcardStates, type UrlParams, type WildcardStates } from '../dsl/index.js';

// The value readers are dsl/'s (body parsers there merge URL parameters too); re-exported for the routes.
export { boolParam, INDICES_OPTIONS, intParam, longParam } from '../dsl/index.js';

export type Query = UrlParams;

/** Accepted on every route (ES BaseRestHandler + RestRequest). */
export const COMMON_PARAMS = ['pretty', 'human', 'error_trace', 'filter_path', 'format', 'source', 'source_content_type'];

/**
 * Rejects parameters the route does not take, suggesting close names as ES's
 * BaseRestHandler.unrecognized does: candidates with a Lucene Levenshtein similarity above 0.5,
 * most similar first, then by name.
 */
export function checkParams(path: string, query: Query, allowed: readonly string[]): void {
  const unknown = Object.keys(query).filter((k) => !allowed.includes(k) && !COMMON_PARAMS.includes(k));
  if (unknown.length === 0) return;
  const candidates = [...new Set([...allowed, ...COMMON_PARAMS])];
  const list = unknown.map((u) => {
    const close = suggestions(u, candidates);
    if (close.length === 0) return `[${u}]`;
    return `[${u}] -> did you mean ${close.length === 1 ? `[${close[0]}]` : `any of [${close.join(', ')}]`}?`;
  });
  throw new IllegalArgumentError(`request [${path}] contains unrecognized parameter${unknown.length > 1 ? 's' : ''}: ${list.join(', ')}`);
}

/** `refresh` (ES WriteRequest.RefreshPolicy.parse): "", "true" → immediate; "wait_for"; "false". */
export function refreshParam(query: Query): RefreshPolicy {
  const v = query.refresh;
  if (v === undefined || v === 'false') return 'none';
  if (v === '' || v === 'true') return 'immediate';
  if (v === 'wait_for') return 'wait_for';
  throw new IllegalArgumentError(`Unknown value for refresh: [${v}].`);
}

/** `expand_wildcards` from the URL (a comma list) over the action's default states. */
export function wildcardStates(query: Query, defaults: WildcardStates): WildcardStates {
  return parseWildcardStates(query.expand_wildcards?.split(','), defaults);
}

/**
 * `expand_wildcards`, `ignore_unavailable`, `allow_no_indices` → index resolution options, over ES's
 * default for searches and most index APIs (strictExpandOpen: open, not hidden; `expandHidden`
 * changes the hidden default for the operator's tables).
 */
export function resolveParams(query: Query, defaults: { ignoreUnavailable: boolean; allowNoIndices: boolean; expandHidden?: boolean }) {
  const states = wildcardStates(query, { open: true, closed: false, hidden: defaults.expandHidden ?? false });
  return {
    ignoreUnavailable: boolParam(query, 'ignore_unavailable', defaults.ignoreUnavailable),
    allowNoIndices: boolParam(query, 'allow_no_indices', defaults.allowNoIndices),
    // Every index here is open: `closed` alone (or `none`) expands a wildcard to nothing.
    expandOpen: states.open,
    expandHidden: states.hidden,
  };
}
