/**
 * ES ExpandedIdsMatcher: an id expression (`a,b*`, `_all`, `*`, empty) matched against existing
 * ids. Concrete ids must match; wildcards may match nothing when `allow_no_match` is true (the
 * default), otherwise they must match something too.
 */
import { wildcardMatch } from '../common/wildcard.js';

export interface IdsMatch {
  /** Matching ids in the order of `existing`, each once. */
  readonly ids: readonly string[];
  /** Tokens that had to match and did not, comma-joined as ES prints them; null when none. */
  readonly unmatched: string | null;
}

export function isMatchAll(expression: string | undefined): boolean {
  return expression === undefined || expression === '' || expression === '_all' || expression === '*';
}

export function matchIds(expression: string | undefined, existing: readonly string[], allowNoMatch: boolean): IdsMatch {
  const tokens = isMatchAll(expression) ? ['*'] : expression!.split(',').map((t) => t.trim()).filter((t) => t !== '');
  const matched = new Set<string>();
  const unmatched: string[] = [];
  for (const token of tokens) {
    const wildcard = token.includes('*');
    const hits = existing.filter((id) => (wildcard ? wildcardMatch(token, id) : id === token));
    for (const h of hits) matched.add(h);
    if (hits.length === 0 && (!wildcard || !allowNoMatch)) unmatched.push(token);
  }
  return { ids: existing.filter((id) => matched.has(id)), unmatched: unmatched.length > 0 ? unmatched.join(',') : null };
}
