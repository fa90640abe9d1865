/**
 * Index expressions → concrete indices (ES IndexNameExpressionResolver): comma lists, `_all`/`*`,
 * wildcards, `-exclusions`; hidden (dot-prefixed) indices only when asked for or named. A missing
 * concrete name is index_not_found unless `ignore_unavailable`; a wildcard that matches nothing is
 * fine unless `allow_no_indices=false`. An alias (by name or matched by a wildcard) stands for its
 * indices.
 */
import { IndexNotFoundError } from '../../errors/index.js';
import { globMatcher } from '../../common/wildcard.js';

export interface ResolveOptions {
  readonly ignoreUnavailable: boolean;
  readonly allowNoIndices: boolean;
  /**
   * `expand_wildcards` has `open` (the default when absent). Every index here is open, so without it
   * a wildcard expands to nothing; named indices and aliases still resolve.
   */
  readonly expandOpen?: boolean;
  readonly expandHidden: boolean;
}

const NO_ALIASES: ReadonlyMap<string, readonly string[]> = new Map();

export const DEFAULT_RESOLVE: ResolveOptions = { ignoreUnavailable: false, allowNoIndices: true, expandHidden: false };

const NOT_HIDDEN = (): boolean => false;

/**
 * Whether a wildcard `pattern` reaches index or alias `name` (ES IndexAbstractionResolver.isIndexVisible):
 * a hidden index (`index.hidden: true`), a hidden alias (`is_hidden: true`) and, as this server treats
 * them, a dot-prefixed name only with `expand_wildcards=hidden|all`, or when both the pattern and the
 * name start with a dot.
 */
export function wildcardVisible(pattern: string, name: string, isHidden: (name: string) => boolean, expandHidden: boolean): boolean {
  // Asked last: the hidden check reads the index's settings, once per index per wildcard search.
  if (expandHidden || (pattern.startsWith('.') && name.startsWith('.'))) return true;
  return !name.startsWith('.') && !isHidden(name);
}

/** The comma-separated parts of an index expression, trimmed, empty ones dropped; none (or empty) is `_all`. */
export function indexExpressionParts(expression: string | undefined): string[] {
  return expression === undefined || expression === '' ? ['_all'] : expression.split(',').map((p) => p.trim()).filter((p) => p !== '');
}

/**
 * `isHidden` answers for index and alias names alike (ES forbids an alias named as an index), so a
 * hidden alias is left out of wildcards as a hidden index is.
 */
export function resolveIndexExpression(
  expression: string | undefined, existing: readonly string[], options: ResolveOptions = DEFAULT_RESOLVE,
  aliases: ReadonlyMap<string, readonly string[]> = NO_ALIASES, isHidden: (name: string) => boolean = NOT_HIDDEN,
): string[] {
  const expandOpen = options.expandOpen !== false;
  const parts = indexExpressionParts(expression);
  const result = new Set<string>();
  let sawWildcard = false;
  for (const part of parts) {
    if (part.startsWith('-') && sawWildcard) {
      const re = globMatcher(part.slice(1));
      for (const name of [...result]) if (re.test(name)) result.delete(name);
      for (const [alias, indices] of aliases) if (re.test(alias)) for (const n of indices) result.delete(n);
      continue;
    }
    if (part === '_all' || part === '*') {
      sawWildcard = true;
      if (!expandOpen) continue;
      for (const name of existing) if (wildcardVisible(part, name, isHidden, options.expandHidden)) result.add(name);
      continue;
    }
    if (part.includes('*')) {
      sawWildcard = true;
      const re = globMatcher(part);
      const matched = expandOpen ? existing.filter((n) => re.test(n) && wildcardVisible(part, n, isHidden, options.expandHidden)) : [];
      if (expandOpen) for (const [alias, indices] of aliases) if (re.test(alias) && wildcardVisible(part, alias, isHidden, options.expandHidden)) matched.push(...indices);
      if (matched.length === 0 && !options.allowNoIndices) throw new IndexNotFoundError(part);
      for (const n of matched) result.add(n);
      continue;
    }
    if (existing.includes(part)) result.add(part);
    else if (aliases.has(part)) for (const n of aliases.get(part)!) result.add(n);
    else if (!options.ignoreUnavailable) throw new IndexNotFoundError(part);
  }
  if (result.size === 0 && !options.allowNoIndices) throw new IndexNotFoundError(expression ?? '_all');
  return [...result];
}
