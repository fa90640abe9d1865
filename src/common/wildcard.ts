/** Simple `*` wildcard patterns (index names, field names, setting names) as anchored RegExps. */

const cache = new Map<string, RegExp>();

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `logs-*` → /^logs-.*$/ ; only `*` is special. Compiled patterns are cached. */
export function wildcardRegExp(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (!re) {
    re = new RegExp('^' + pattern.split('*').map(escapeRegExp).join('.*') + '$');
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, re);
  }
  return re;
}

export function wildcardMatch(pattern: string, value: string): boolean {
  return pattern.includes('*') ? wildcardRegExp(pattern).test(value) : pattern === value;
}
