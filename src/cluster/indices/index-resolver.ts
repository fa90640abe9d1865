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
  readonly expandHidden: boolean;
}

const NO_ALIASES: ReadonlyMap<string, readonly string[]> = new Map();

export const DEFAULT_RESOLVE: ResolveOptions = { ignoreUnavailable: false, allowNoIndices: true, expandHidden: false };

const NOT_HIDDEN = (): boolean => false;

/**
 * Whether a wildcard `pattern` reaches index `name` (ES IndexAbstractionResolver.isIndexVisible): a
 * hidden index (`index.hidden: true`) and, as this server treats them, a dot-prefixed one only with
 * `expand_wildcards=hidden|all`, or when both the pattern and the name start with a dot.
 */
export function wildcardVisible(pattern: string, name: string, isHidden: (name: string) => boolean, expandHidden: boolean): boolean {
  // Asked last: the hidden check reads the index's settings, once per index per wildcard search.
  if (expandHidden || (pattern.startsWith('.') && name.startsWith('.'))) return true;
  return !name.startsWith('.') && !isHidden(name);
}

export function resolveIndexExpression(
  expression: string | undefined, existing: readonly string[], options: ResolveOptions = DEFAULT_RESOLVE,
  aliases: ReadonlyMap<string, readonly string[]> = NO_ALIASES, isHidden: (index: string) => boolean = NOT_HIDDEN,
): string[] {
  const parts = expression === undefined || expression === '' ? ['_all'] : expression.split(',').map((p) => p.trim()).filter((p) => p !== '');
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
      for (const name of existing) if (wildcardVisible(part, name, isHidden, options.expandHidden)) result.add(name);
      continue;
    }
    if (part.includes('*')) {
      sawWildcard = true;
      const re = globMatcher(part);
      const matched = existing.filter((n) => re.test(n) && wildcardVisible(part, n, isHidden, options.expandHidden));
      for (const [alias, indices] of aliases) if (re.test(alias) && wildcardVisible(part, alias, NOT_HIDDEN, options.expandHidden)) matched.push(...indices);
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
