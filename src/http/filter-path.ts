/**
 * `filter_path` response filtering (ES FilterPath): comma-separated dotted paths with `*` (one
 * level), `**` (any depth), and `-` exclusions. Arrays are transparent: the path applies to their
 * elements. Objects left empty are removed.
 */
import { wildcardMatch } from '../common/wildcard.js';

interface Pattern {
  readonly segments: readonly string[];
}

function matchSegment(pattern: string, key: string): boolean {
  if (pattern === '*') return true;
  return wildcardMatch(pattern, key);
}

/** Remaining patterns after descending into `key`; a pattern that ended means "keep all". */
function descend(patterns: readonly Pattern[], key: string): { next: Pattern[]; whole: boolean } {
  const next: Pattern[] = [];
  let whole = false;
  for (const p of patterns) {
    const [head, ...rest] = p.segments;
    if (head === '**') {
      next.push(p); // ** may absorb this key
      if (rest.length > 0) {
        const r = descend([{ segments: rest }], key);
        next.push(...r.next);
        if (r.whole) whole = true;
      } else whole = true;
      continue;
    }
    if (!matchSegment(head, key)) continue;
    if (rest.length === 0) whole = true;
    else next.push({ segments: rest });
  }
  return { next, whole };
}

function include(value: unknown, patterns: Pattern[]): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => include(v, patterns)).filter((v) => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const { next, whole } = descend(patterns, k);
    if (whole) out[k] = v;
    else if (next.length > 0) {
      const r = include(v, next);
      if (r !== undefined) out[k] = r;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function exclude(value: unknown, patterns: Pattern[]): unknown {
  if (Array.isArray(value)) return value.map((v) => exclude(v, patterns));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const { next, whole } = descend(patterns, k);
    if (whole) continue;
    out[k] = next.length > 0 ? exclude(v, next) : v;
  }
  return out;
}

export function applyFilterPath(value: unknown, filterPath: string): unknown {
  const specs = filterPath.split(',').map((s) => s.trim()).filter(Boolean);
  const inc = specs.filter((s) => !s.startsWith('-')).map((s) => ({ segments: s.split('.') }));
  const exc = specs.filter((s) => s.startsWith('-')).map((s) => ({ segments: s.slice(1).split('.') }));
  let out = value;
  if (inc.length > 0) out = include(out, inc) ?? {};
  if (exc.length > 0) out = exclude(out, exc);
  return out;
}
