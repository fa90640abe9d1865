/**
 * `_source` path filtering (ES XContentMapValues.filter): the fetch phase and the mapping's
 * stored-source filter (`_source.includes/excludes`) share it.
 */
import { defineOwn, isPlainObject } from './json.js';
import { RawJson } from './raw-json.js';

export interface SourceFilter {
  readonly fetch: boolean;
  readonly includes: readonly string[];
  readonly excludes: readonly string[];
}

/**
 * Compiles `a.b`, `a.*`, `*.c` path patterns (ES XContentMapValues.filter: `*` matches any
 * characters, dots included). For a path the matcher answers `match` (the path and everything
 * under it), `prefix` (something under the path may match) or `none`.
 */
export function compilePathPatterns(patterns: readonly string[]): (path: string) => 'match' | 'prefix' | 'none' {
  return (path) => {
    let prefix = false;
    for (const p of patterns) {
      const states = globStates(p, path);
      if (states.has(p.length)) return 'match';
      if (!prefix && states.size > 0 && globStates(p, path + '.').size > 0) prefix = true;
    }
    return prefix ? 'prefix' : 'none';
  };
}

/** NFA simulation of glob `p` over `t`: the pattern positions alive after consuming all of `t`. */
function globStates(p: string, t: string): Set<number> {
  const close = (set: Set<number>) => {
    for (const i of set) if (p[i] === '*') set.add(i + 1); // Set iteration visits added items too
    return set;
  };
  let cur = close(new Set([0]));
  for (let k = 0; k < t.length && cur.size > 0; k++) {
    const next = new Set<number>();
    for (const i of cur) {
      if (i >= p.length) continue;
      if (p[i] === '*') next.add(i);
      else if (p[i] === t[k]) next.add(i + 1);
    }
    cur = close(next);
  }
  return cur;
}

/**
 * Applies includes/excludes to a source object, returning a new object (ES: a field is kept when it
 * matches an include — or there are no includes — and matches no exclude; objects are kept when a
 * descendant is kept; arrays of objects are filtered element-wise).
 */
export function filterSource(source: Record<string, unknown>, filter: SourceFilter): Record<string, unknown> {
  if (filter.includes.length === 0 && filter.excludes.length === 0) return source;
  const inc = filter.includes.length > 0 ? compilePathPatterns(filter.includes) : null;
  const exc = filter.excludes.length > 0 ? compilePathPatterns(filter.excludes) : null;
  const walk = (obj: Record<string, unknown>, prefix: string, included: boolean): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) {
      const path = prefix ? `${prefix}.${k}` : k;
      if (exc && exc(path) === 'match') continue;
      const incState = included ? 'match' : inc ? inc(path) : 'match';
      if (incState === 'none') continue;
      const fully = incState === 'match';
      const kept = keep(v, path, fully);
      if (kept !== undefined) defineOwn(out, k, kept);
    }
    return out;
  };
  const keep = (v: unknown, path: string, fully: boolean): unknown => {
    if (v instanceof RawJson) return keep(v.parse(), path, fully);
    if (isPlainObject(v)) {
      const o = walk(v, path, fully);
      return fully || Object.keys(o).length > 0 ? o : undefined;
    }
    if (Array.isArray(v)) {
      const arr = v.map((x) => keep(x, path, fully)).filter((x) => x !== undefined);
      return fully || arr.length > 0 ? arr : undefined;
    }
    return fully ? v : undefined;
  };
  return walk(source, '', false);
}
