/**
 * Authorization of a REST request (ES AuthorizationService + IndicesAndAliasesResolver): every
 * route names its ES action; cluster actions need a cluster privilege, index actions a privilege on
 * every index the request names. Index expressions are narrowed as ES narrows them: explicitly
 * named indices the caller may not use are a 403, while wildcards (`*`, `logs-*`, `_all`) silently
 * expand to the authorized indices only — a caller cannot even learn which others exist.
 */
import { indexExpressionParts, resolveIndexExpression } from '../cluster/index.js';
import { globMatcher } from '../common/wildcard.js';
import { SecurityError } from '../errors/index.js';
import type { SearchRequest } from '../dsl/index.js';
import { grantingPrivileges, isClusterAction, principal, SELF_ACTIONS, type Authentication } from '../security/index.js';
import { resolveParams, type Query } from './params.js';

/** What a route asks of the caller. */
export interface RouteAuthorization {
  /** ES action name, e.g. `indices:data/read/search` or `cluster:monitor/main`. */
  readonly action: string;
  /** Index actions whose indices come per item (`_bulk`): only "some index" is checked up front. */
  readonly perItem?: boolean;
  /** The route creates its index when missing (document writes), which needs `indices:admin/auto_create` too. */
  readonly autoCreate?: boolean;
}

/** An expression that resolves to no index at all (ES uses the same trick: `*,-*`). */
export const NO_INDICES = '*,-*';

/** The per-request view of the caller's permission, for checks a handler makes itself (bulk items). */
export class RequestAuthorizer {
  constructor(readonly auth: Authentication) {}

  /** The 403 for `action` on `indices`, or null when every one is allowed. */
  denial(action: string, indices: readonly string[]): SecurityError | null {
    if (isClusterAction(action)) {
      return this.auth.permission.allowsCluster(action) || SELF_ACTIONS.has(action)
        ? null
        : SecurityError.unauthorized(action, principal(this.auth), null, { kind: 'cluster', privileges: grantingPrivileges('cluster', action) });
    }
    const denied = indices.filter((i) => !this.auth.permission.allowsIndex(action, i));
    return denied.length === 0 ? null : SecurityError.unauthorized(action, principal(this.auth), denied, { kind: 'index', privileges: grantingPrivileges('index', action) });
  }

  require(action: string, indices: readonly string[]): void {
    const e = this.denial(action, indices);
    if (e) throw e;
  }

  /** The 403 for an action that names no index, refused because no index grants it. */
  requireSomeIndex(action: string): void {
    if (this.auth.permission.allowsIndexAnywhere(action)) return;
    throw SecurityError.unauthorized(action, principal(this.auth), null, { kind: 'index', privileges: grantingPrivileges('index', action) });
  }

  /**
   * The request's index expression narrowed to what the caller may use for `action`: explicit names
   * are checked (403 when not allowed), wildcards replaced by the allowed indices they match.
   * Unchanged when the caller may use every index.
   */
  narrow(
    action: string, expression: string | undefined, existing: () => readonly string[],
    expand: () => { expandOpen: boolean; expandHidden: boolean }, isHidden: (name: string) => boolean = () => false,
  ): string | undefined {
    if (this.auth.permission.allowsEveryIndex(action)) return expression;
    // One plain name (the common `/{index}/_search`): exactly what the general reading below makes
    // of it (a single `name` step, returned as is), without its per-request arrays and set.
    if (expression !== undefined && expression !== '' && expression !== '_all' && !expression.includes(',') && !expression.includes('*') && expression.trim() === expression) {
      // Allowed: no arrays for require's check; refused: require's 403, as before.
      if (!this.auth.permission.allowsIndex(action, expression)) this.require(action, [expression]);
      return expression;
    }
    const parts = indexExpressionParts(expression);
    // The same reading of the expression as the resolver's: an exclusion only after a wildcard,
    // anything else that is not a wildcard is a name (checked, whether or not it exists).
    let sawWildcard = false;
    const steps = parts.map((part) => {
      if (part.startsWith('-') && sawWildcard) return { kind: 'exclude' as const, part };
      if (part === '_all' || part.includes('*')) {
        sawWildcard = true;
        return { kind: 'wildcard' as const, part };
      }
      return { kind: 'name' as const, part };
    });
    this.require(action, steps.filter((s) => s.kind === 'name').map((s) => s.part));
    // Names only (the common `/{index}/_search`): nothing to expand, so neither the index list nor
    // the query's options are read.
    if (!sawWildcard) return [...new Set(parts)].join(',');
    const allowed = existing().filter((n) => this.auth.permission.allowsIndex(action, n));
    const options = { ignoreUnavailable: true, allowNoIndices: true, ...expand() };
    const out = new Set<string>();
    for (const { kind, part } of steps) {
      if (kind === 'exclude') {
        const re = globMatcher(part.slice(1));
        for (const n of [...out]) if (re.test(n)) out.delete(n);
      } else if (kind === 'wildcard') {
        for (const n of resolveIndexExpression(part, allowed, options, undefined, isHidden)) out.add(n);
      } else {
        out.add(part);
      }
    }
    return out.size === 0 ? NO_INDICES : [...out].join(',');
  }
}

/** What authorization reads of a request (rest.ts's RestRequest, without importing it back). */
interface AuthorizedRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Query;
}

/**
 * Checks a route's action before its handler runs and returns what the handler's request should
 * carry: its URL parameters (the `index` one narrowed to what the key may search) and the
 * authorizer for per-item checks. Two fields rather than a copy of the request: a spread followed
 * by more properties gets a fresh V8 hidden class on every request.
 */
export function authorizeRequest(
  req: AuthorizedRequest, route: RouteAuthorization, auth: Authentication, existing: () => readonly string[],
  isHidden: (index: string) => boolean = () => false,
): { readonly params: Readonly<Record<string, string>>; readonly authorizer: RequestAuthorizer } {
  const authorizer = new RequestAuthorizer(auth);
  const { action } = route;
  if (isClusterAction(action)) {
    authorizer.require(action, []);
    return { params: req.params, authorizer };
  }
  if (route.perItem) {
    authorizer.requireSomeIndex(action);
    return { params: req.params, authorizer };
  }
  const expression = req.params.index;
  if (route.autoCreate && expression !== undefined) {
    authorizer.require(action, [expression]);
    if (!existing().includes(expression)) authorizer.require('indices:admin/auto_create', [expression]);
    return { params: req.params, authorizer };
  }
  // Every index allowed (the superuser): the expression stands as sent, and nothing below is built.
  if (auth.permission.allowsEveryIndex(action)) return { params: req.params, authorizer };
  const expand = () => resolveParams(req.query, { ignoreUnavailable: false, allowNoIndices: true });
  const narrowed = authorizer.narrow(action, expression, existing, expand, isHidden);
  if (narrowed === expression) return { params: req.params, authorizer };
  return { params: { ...req.params, index: narrowed! }, authorizer };
}

/** What narrowing a search body's index names needs besides the request's authorizer. */
export interface BodyIndexNames {
  /** The existing index and alias names (wildcards expand over them). */
  readonly existing: () => readonly string[];
  readonly isHidden: (name: string) => boolean;
}

/**
 * A search's `indices_boost` for a key limited to some indices: each expression narrowed as the
 * path's is — a name the key may not search is its 403 whether or not it exists, a wildcard keeps
 * what it may search — so whether a boost answers 404 or 200 cannot tell it which other indices
 * exist. Unchanged without security, for a key that may search every index, or without boosts.
 */
export function authorizedIndexBoosts(
  authorizer: RequestAuthorizer | undefined, request: SearchRequest, names: BodyIndexNames, expand: () => { expandOpen: boolean; expandHidden: boolean },
): SearchRequest {
  const boosts = request.indicesBoost;
  if (!authorizer || !boosts || authorizer.auth.permission.allowsEveryIndex(SEARCH_ACTION)) return request;
  const narrowed = boosts.map((b) => ({ ...b, index: authorizer.narrow(SEARCH_ACTION, b.index, names.existing, expand, names.isHidden) ?? b.index }));
  return { ...request, indicesBoost: narrowed };
}

const SEARCH_ACTION = 'indices:data/read/search';
