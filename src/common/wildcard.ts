/**
 * Simple `*` wildcard patterns (index names, field names, filter_path keys, privilege and setting
 * names): only `*` is special. Matched without backtracking: the pieces between stars are found
 * left to right, each at its first place after the previous one (greedy leftmost is exact for
 * `*`-only patterns), so a match costs one pass over the value per piece, never n⁴ like
 * `*a*a*a*a*b` through a backtracking RegExp.
 */

export interface Glob {
  test(value: string): boolean;
}

class StarGlob implements Glob {
  private readonly first: string;
  private readonly last: string;
  private readonly middle: string[];
  constructor(pattern: string) {
    const parts = pattern.split('*');
    this.first = parts[0];
    this.last = parts[parts.length - 1];
    this.middle = parts.slice(1, -1).filter((p) => p.length > 0);
  }
  test(value: string): boolean {
    const end = value.length - this.last.length;
    if (end < this.first.length || !value.startsWith(this.first) || !value.endsWith(this.last)) return false;
    let pos = this.first.length;
    for (const piece of this.middle) {
      const at = value.indexOf(piece, pos);
      if (at < 0 || at + piece.length > end) return false;
      pos = at + piece.length;
    }
    return true;
  }
}

class ExactGlob implements Glob {
  constructor(private readonly pattern: string) {}
  test(value: string): boolean {
    return value === this.pattern;
  }
}

const cache = new Map<string, Glob>();

/** `logs-*` → a matcher of every name starting with `logs-`. Compiled patterns are cached. */
export function globMatcher(pattern: string): Glob {
  let glob = cache.get(pattern);
  if (!glob) {
    glob = pattern.includes('*') ? new StarGlob(pattern) : new ExactGlob(pattern);
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, glob);
  }
  return glob;
}

export function wildcardMatch(pattern: string, value: string): boolean {
  return pattern.includes('*') ? globMatcher(pattern).test(value) : pattern === value;
}
