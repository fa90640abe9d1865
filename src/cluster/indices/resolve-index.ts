/**
 * `GET /_resolve/index/{name}` (ES ResolveIndexAction, IndexNameExpressionResolver.resolveExpressions
 * with aliases preserved): what an index expression names, as index abstractions — each matching
 * index with its aliases and attributes, each matching alias with its indices — rather than the
 * concrete indices a search would read. A wildcard matches indices and aliases alike (an alias
 * is listed as itself, not as its indices); a concrete name must exist unless `ignore_unavailable`.
 */
import { IndexNotFoundError } from '../../errors/index.js';
import { globMatcher } from '../../common/wildcard.js';
import type { AliasRegistry } from './aliases.js';
import { indexExpressionParts, wildcardVisible } from './index-resolver.js';

/** ES IndicesOptions as this API reads them (default strictExpandOpen: open indices, missing names fail). */
export interface ResolveIndexOptions {
  readonly ignoreUnavailable: boolean;
  readonly allowNoIndices: boolean;
  /** `expand_wildcards` has `open` (every index here is open). */
  readonly expandOpen: boolean;
  /** `expand_wildcards` has `closed` (no index here is closed; aliases still match). */
  readonly expandClosed: boolean;
  readonly expandHidden: boolean;
}

export const DEFAULT_RESOLVE_INDEX: ResolveIndexOptions = { ignoreUnavailable: false, allowNoIndices: true, expandOpen: true, expandClosed: false, expandHidden: false };

/** What the resolution reads of the node's indices. */
export interface IndexAbstractions {
  readonly indexNames: readonly string[];
  readonly aliases: AliasRegistry;
  /** `index.hidden: true`. */
  isHiddenIndex(index: string): boolean;
}

/**
 * Which names the caller may see (security on): wildcards expand over those only; a concrete name
 * it may not see is dropped under `ignore_unavailable`, else `refuse`d (ES's 403).
 */
export interface ResolveAccess {
  allows(name: string): boolean;
  refuse(name: string): never;
}

export interface ResolvedIndexBody {
  readonly name: string;
  readonly aliases?: string[];
  readonly attributes: string[];
}

export interface ResolveIndexBody {
  readonly indices: ResolvedIndexBody[];
  readonly aliases: Array<{ name: string; indices?: string[] }>;
  readonly data_streams: never[];
}

export function resolveIndexAbstractions(
  expression: string, view: IndexAbstractions, options: ResolveIndexOptions = DEFAULT_RESOLVE_INDEX, access: ResolveAccess | null = null,
): ResolveIndexBody {
  const aliasTable = view.aliases.table();
  const isIndex = new Set(view.indexNames);
  const parts = indexExpressionParts(expression);
  const expandWildcards = options.expandOpen || options.expandClosed;
  const found = new Set<string>();
  let sawWildcard = false;
  for (const part of parts) {
    if (part.startsWith('-') && sawWildcard) {
      const name = part.slice(1);
      const re = name.includes('*') ? globMatcher(name) : null;
      for (const n of [...found]) if (re ? re.test(n) : n === name) found.delete(n);
      continue;
    }
    // ES reads a lone `_all` or `*` as `**`: a wildcard over aliases as well as indices, as every wildcard is here.
    const pattern = part === '_all' ? '*' : part;
    if (expandWildcards && pattern.includes('*')) {
      sawWildcard = true;
      const re = globMatcher(pattern);
      const matched: string[] = [];
      // Every index here is open: `expand_wildcards=closed` alone matches none of them.
      if (options.expandOpen) {
        for (const n of view.indexNames) if (re.test(n) && wildcardVisible(pattern, n, view.isHiddenIndex, options.expandHidden)) matched.push(n);
      }
      for (const a of aliasTable.keys()) if (re.test(a) && wildcardVisible(pattern, a, (alias) => view.aliases.isHidden(alias), options.expandHidden)) matched.push(a);
      const allowed = access ? matched.filter((n) => access.allows(n)) : matched;
      if (allowed.length === 0 && !options.allowNoIndices) throw new IndexNotFoundError(pattern);
      for (const n of allowed) found.add(n);
      continue;
    }
    if (access && !access.allows(part)) {
      if (options.ignoreUnavailable) continue;
      access.refuse(part);
    }
    if (isIndex.has(part) || aliasTable.has(part)) found.add(part);
    else if (!options.ignoreUnavailable) throw new IndexNotFoundError(part);
  }
  const indices: ResolvedIndexBody[] = [];
  const aliases: Array<{ name: string; indices?: string[] }> = [];
  for (const name of [...found].sort()) {
    if (isIndex.has(name)) {
      // A restricted caller learns no name it may not see, here as anywhere.
      const own = [...view.aliases.aliasesOf(name).keys()].filter((a) => access === null || access.allows(a)).sort();
      // ES sorts the attributes by name: `hidden` before `open`.
      const attributes = view.isHiddenIndex(name) ? ['hidden', 'open'] : ['open'];
      indices.push({ name, ...(own.length > 0 ? { aliases: own } : {}), attributes });
    } else {
      const of = (aliasTable.get(name) ?? []).filter((i) => access === null || access.allows(i)).sort();
      aliases.push({ name, ...(of.length > 0 ? { indices: of } : {}) });
    }
  }
  return { indices, aliases, data_streams: [] };
}

/** The node's indices as the resolution reads them (IndicesService, structurally: no import back). */
export function indexAbstractionsOf(indices: { names(): string[]; readonly aliases: AliasRegistry; isHiddenIndex(name: string): boolean }): IndexAbstractions {
  return { indexNames: indices.names(), aliases: indices.aliases, isHiddenIndex: indices.isHiddenIndex };
}
