/**
 * Index aliases (ES AliasMetadata, MetadataIndexAliasesService, IndexAbstraction.Alias): names that
 * stand for one or more indices, each with an optional filter and write-index flag. ES keeps an
 * alias inside the metadata of every index it points to; so does this registry (index → alias →
 * properties), which the `indices` cluster-state section stores with each index. Lookups by alias
 * name are derived from that table.
 */
import { AliasesNotFoundError, IllegalArgumentError, IllegalStateError, IndexNotFoundError, InvalidAliasNameError } from '../../errors/index.js';
import { globMatcher } from '../../common/wildcard.js';
import { parseQuery, type AliasAction, type AliasProperties, type QueryNode } from '../../dsl/index.js';
import { validateIndexOrAliasName } from './index-names.js';
import { indexExpressionParts } from './index-resolver.js';

/** How an alias is stored per index in the cluster state (ES's AliasMetadata XContent). */
export interface StoredAlias {
  readonly filter?: Record<string, unknown>;
  readonly is_write_index?: boolean;
  readonly is_hidden?: boolean;
}

export class AliasRegistry {
  /** index → alias → properties. */
  private readonly byIndex = new Map<string, Map<string, AliasProperties>>();

  /** The indices an alias points to (sorted), or an empty list when it does not exist. */
  indicesOf(alias: string): string[] {
    const out: string[] = [];
    for (const [index, aliases] of this.byIndex) if (aliases.has(alias)) out.push(index);
    return out.sort();
  }

  has(alias: string): boolean {
    for (const aliases of this.byIndex.values()) if (aliases.has(alias)) return true;
    return false;
  }

  /** Every alias name, sorted. */
  names(): string[] {
    const out = new Set<string>();
    for (const aliases of this.byIndex.values()) for (const a of aliases.keys()) out.add(a);
    return [...out].sort();
  }

  /** alias → its indices, for index-expression resolution. */
  table(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const [index, aliases] of this.byIndex) {
      for (const a of aliases.keys()) {
        const list = out.get(a);
        if (list) list.push(index);
        else out.set(a, [index]);
      }
    }
    return out;
  }

  aliasesOf(index: string): ReadonlyMap<string, AliasProperties> {
    return this.byIndex.get(index) ?? new Map();
  }

  properties(index: string, alias: string): AliasProperties | undefined {
    return this.byIndex.get(index)?.get(alias);
  }

  /**
   * ES IndexAbstraction.Alias.isHidden: the alias says `is_hidden: true` (ES keeps the flag the same on
   * every index of an alias; the first index holding it answers). One set lookup: wildcard resolution
   * asks this for every alias it matches, on each search.
   */
  isHidden(alias: string): boolean {
    return this.hiddenAliases().has(alias);
  }

  /** The hidden aliases, found on first use after each change (load, removeIndex, apply). */
  private hidden: ReadonlySet<string> | null = null;

  private hiddenAliases(): ReadonlySet<string> {
    if (this.hidden === null) {
      const seen = new Set<string>();
      const hidden = new Set<string>();
      for (const aliases of this.byIndex.values()) {
        for (const [alias, p] of aliases) {
          if (seen.has(alias)) continue;
          seen.add(alias);
          if (p.isHidden === true) hidden.add(alias);
        }
      }
      this.hidden = hidden;
    }
    return this.hidden;
  }

  /**
   * The index writes through an alias go to (ES IndexAbstraction.Alias.getWriteIndex): the one
   * with `is_write_index: true`, else the alias's only index unless it says `false`.
   */
  writeIndexOf(alias: string): string {
    const indices = this.indicesOf(alias);
    const flagged = indices.find((i) => this.properties(i, alias)!.isWriteIndex === true);
    if (flagged) return flagged;
    if (indices.length === 1 && this.properties(indices[0], alias)!.isWriteIndex !== false) return indices[0];
    throw new IllegalArgumentError(
      `no write index is defined for alias [${alias}]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index`,
    );
  }

  /** Loads an index's aliases from the cluster state (start-up). */
  load(index: string, stored: Record<string, StoredAlias> | undefined): void {
    if (!stored) return;
    const m = new Map<string, AliasProperties>();
    for (const [name, s] of Object.entries(stored)) {
      m.set(name, { filter: s.filter ?? null, isWriteIndex: s.is_write_index ?? null, isHidden: s.is_hidden ?? null });
    }
    if (m.size > 0) this.byIndex.set(index, m);
    this.hidden = null;
  }

  /** An index's aliases as the cluster state stores them, or undefined when it has none. */
  stored(index: string): Record<string, StoredAlias> | undefined {
    const m = this.byIndex.get(index);
    if (!m || m.size === 0) return undefined;
    return Object.fromEntries([...m].map(([name, p]) => [name, render(p)]));
  }

  removeIndex(index: string): void {
    this.byIndex.delete(index);
    this.hidden = null;
  }

  /**
   * Applies alias actions atomically (ES MetadataIndexAliasesService.applyAliasActions): every
   * action is resolved and validated against a copy, which replaces the registry only when all
   * succeeded, so a failed request changes nothing. Returns the indices to delete (remove_index).
   */
  apply(actions: readonly AliasAction[], resolveIndices: (expression: string) => string[], indexExists: (name: string) => { name: string; uuid: string } | undefined): string[] {
    const next = new Map([...this.byIndex].map(([i, m]) => [i, new Map(m)]));
    const removedIndices: string[] = [];
    const aliasNames = () => {
      const out = new Set<string>();
      for (const m of next.values()) for (const a of m.keys()) out.add(a);
      return [...out];
    };
    for (const action of actions) {
      const indices = [...new Set(action.indices.flatMap((e) => resolveIndices(e)))];
      if (action.kind === 'remove_index') {
        for (const i of indices) {
          next.delete(i);
          removedIndices.push(i);
        }
        continue;
      }
      if (action.kind === 'add') {
        for (const alias of action.aliases) {
          if (alias.includes('*')) throw new IllegalArgumentError(`alias [${alias}] may not contain wildcards`);
          validateAliasName(alias);
          const clash = indexExists(alias);
          if (clash) throw new InvalidAliasNameError(alias, 'an index or data stream exists with the same name as the alias', clash);
          for (const i of indices) {
            let m = next.get(i);
            if (!m) next.set(i, (m = new Map()));
            m.set(alias, action.properties);
          }
        }
        continue;
      }
      // remove: alias names may be wildcards over the aliases of the named indices.
      const missing: string[] = [];
      for (const pattern of action.aliases) {
        const re = pattern.includes('*') || pattern === '_all' ? globMatcher(pattern === '_all' ? '*' : pattern) : null;
        let removed = false;
        for (const i of indices) {
          const m = next.get(i);
          if (!m) continue;
          for (const a of [...m.keys()]) {
            if (re ? re.test(a) : a === pattern) {
              m.delete(a);
              removed = true;
            }
          }
          if (m.size === 0) next.delete(i);
        }
        if (!removed && !re) missing.push(pattern);
      }
      // ES: a remove of an alias that does not exist fails when must_exist is true, and (since 8.x)
      // by default too when none of the named aliases existed.
      if (missing.length > 0 && (action.mustExist === true || (action.mustExist === null && missing.length === action.aliases.length))) {
        throw new AliasesNotFoundError(missing);
      }
    }
    // ES validates the final state when building the metadata (IndexAbstraction.Alias): one write
    // index per alias, an IllegalStateException there, hence ES's 500.
    for (const alias of aliasNames()) {
      const writers = [...next].filter(([, m]) => m.get(alias)?.isWriteIndex === true).map(([i]) => i).sort();
      if (writers.length > 1) throw new IllegalStateError(`alias [${alias}] has more than one write index [${writers.join(',')}]`);
    }
    this.byIndex.clear();
    for (const [i, m] of next) if (m.size > 0) this.byIndex.set(i, m);
    this.hidden = null;
    return removedIndices;
  }

  /**
   * The filters searches of `expression` apply to `index` (ES IndicesService.buildAliasFilter):
   * null when the index is reached directly (by name or index wildcard) or through an alias
   * without a filter; else the filters of the aliases it was reached through, any of which matches.
   */
  searchFilters(expression: string | undefined, index: string): Array<Record<string, unknown>> | null {
    const aliases = this.byIndex.get(index);
    if (!aliases) return null;
    const parts = indexExpressionParts(expression);
    const filters: Array<Record<string, unknown>> = [];
    let sawWildcard = false;
    for (const part of parts) {
      if (part.startsWith('-') && sawWildcard) continue;
      if (part === '_all' || part === '*') return null;
      if (part.includes('*')) {
        sawWildcard = true;
        const re = globMatcher(part);
        if (re.test(index)) return null;
        for (const [a, p] of aliases) {
          if (!re.test(a)) continue;
          if (p.filter === null) return null;
          filters.push(p.filter);
        }
        continue;
      }
      if (part === index) return null;
      const p = aliases.get(part);
      if (p) {
        if (p.filter === null) return null;
        filters.push(p.filter);
      }
    }
    return filters.length > 0 ? filters : null;
  }

  /**
   * `GET /_alias/{name}`-style selection: for each index, its aliases matching `names` (wildcards,
   * `_all`, `*`; all when null). Names that are not wildcards and match nothing are reported missing.
   */
  select(indices: readonly string[], names: readonly string[] | null): { found: Map<string, Map<string, AliasProperties>>; missing: string[] } {
    const patterns = names === null ? null : names.map((n) => (n === '_all' || n.includes('*') ? { n, re: globMatcher(n === '_all' ? '*' : n) } : { n, re: null }));
    const found = new Map<string, Map<string, AliasProperties>>();
    const seen = new Set<string>();
    for (const index of indices) {
      const out = new Map<string, AliasProperties>();
      for (const [a, p] of [...this.aliasesOf(index)].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
        const hit = patterns === null ? true : patterns.some((q) => (q.re ? q.re.test(a) : q.n === a));
        if (hit) {
          out.set(a, p);
          seen.add(a);
        }
      }
      found.set(index, out);
    }
    const missing = patterns === null ? [] : patterns.filter((q) => q.re === null && !seen.has(q.n)).map((q) => q.n);
    return { found, missing };
  }
}

/** An alias as `GET /_alias` and `GET /{index}` render it (only the properties that are set). */
export function render(p: AliasProperties): StoredAlias {
  return {
    ...(p.filter !== null ? { filter: p.filter } : {}),
    ...(p.isWriteIndex !== null ? { is_write_index: p.isWriteIndex } : {}),
    ...(p.isHidden !== null ? { is_hidden: p.isHidden } : {}),
  };
}

/** ES AliasValidator.validateAliasStandalone: a name, then the index-or-alias name rules. */
export function validateAliasName(alias: string): void {
  if (alias.trim() === '') throw new IllegalArgumentError('alias name is required');
  validateIndexOrAliasName(alias, (rule) => new InvalidAliasNameError(alias, rule));
}

/**
 * A search's query for one index reached through filtered aliases (ES Queries.filtered): the query
 * (match_all when none) must match, and so must one of the filters, which do not score.
 */
export function aliasFilteredQuery(query: QueryNode | null, filters: ReadonlyArray<Record<string, unknown>>): QueryNode {
  const filter = parseQuery(filters.length === 1 ? filters[0] : { bool: { should: filters, minimum_should_match: 1 } });
  return {
    kind: 'bool', must: [query ?? { kind: 'match_all', boost: 1, name: null }], should: [], filter: [filter], mustNot: [],
    minimumShouldMatch: null, boost: 1, name: null,
  };
}

/** The single index a read of one document through `name` uses (ES concreteSingleIndex). */
export function singleIndexOf(registry: AliasRegistry, name: string): string {
  const indices = registry.indicesOf(name);
  if (indices.length === 0) throw new IndexNotFoundError(name);
  if (indices.length > 1) {
    throw new IllegalArgumentError(`alias [${name}] has more than one index associated with it [${indices.join(', ')}], can't execute a single index op`);
  }
  return indices[0];
}
