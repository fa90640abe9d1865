/**
 * `collapse.inner_hits` (ES InnerHitBuilder's ObjectParser, as ExpandSearchPhase uses it): each
 * definition expands every collapsed hit with a search of its group. Built: `name`, `from`, `size`
 * (default 3), `sort`, `_source`, `track_scores`, `version`, `seq_no_primary_term`, `explain`,
 * `ignore_unmapped` (no effect on a group search); the rest of InnerHitBuilder is refused.
 */
import { IllegalArgumentError, XContentParseError } from '../errors/index.js';
import { booleanValue, forEachEntry, intValue, parsingField, readString } from './parse-helpers.js';
import { tokenName } from './json-body.js';
import { parseSort, type SortSpec } from './sort.js';
import { FETCH_ALL, parseSourceFilter, type SourceFilter } from './source-filter.js';

export interface CollapseInnerHits {
  readonly name: string;
  readonly from: number;
  readonly size: number;
  readonly sort: readonly SortSpec[] | null;
  readonly source: SourceFilter;
  readonly trackScores: boolean;
  readonly version: boolean;
  readonly seqNoPrimaryTerm: boolean;
  readonly explain: boolean;
}

/** InnerHitBuilder's default `size`. */
const DEFAULT_SIZE = 3;
const OWNER = 'inner_hits';
/** InnerHitBuilder members ES takes that group searches do not build yet. */
const NOT_YET = new Set(['stored_fields', 'docvalue_fields', 'fields', 'script_fields', 'highlight', 'collapse']);

function nonNegative(k: string, v: unknown): number {
  if (typeof v !== 'number' && typeof v !== 'string') throw new XContentParseError(`[${OWNER}] ${k} doesn't support values of type: ${tokenName(v)}`);
  const n = parsingField(OWNER, k, () => intValue(v));
  if (n < 0) throw new XContentParseError(`[${OWNER}] failed to parse field [${k}]`, new IllegalArgumentError(`illegal ${k} value, at least 0 or higher`));
  return n;
}

function flag(k: string, v: unknown): boolean {
  if (typeof v !== 'boolean' && typeof v !== 'string') throw new XContentParseError(`[${OWNER}] ${k} doesn't support values of type: ${tokenName(v)}`);
  return parsingField(OWNER, k, () => booleanValue(v));
}

/** Definitions using a member group searches do not build yet fail with a clear illegal_argument_exception. */
export function refuseNotYet(v: unknown): void {
  for (const item of Array.isArray(v) ? v : [v]) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
    for (const k of Object.keys(item)) if (NOT_YET.has(k)) throw new IllegalArgumentError(`[collapse.inner_hits.${k}] is not supported by this server yet`);
  }
}

/** One definition; `name` is checked by the caller (CollapseBuilder.setInnerHits). */
export function parseInnerHits(body: Record<string, unknown>): { name: string | null } & Omit<CollapseInnerHits, 'name'> {
  const r = {
    name: null as string | null, from: 0, size: DEFAULT_SIZE, sort: null as SortSpec[] | null, source: FETCH_ALL,
    trackScores: false, version: false, seqNoPrimaryTerm: false, explain: false,
  };
  forEachEntry(body, (k, v) => {
    switch (k) {
      case 'name':
        if (typeof v !== 'string') throw new XContentParseError(`[${OWNER}] name doesn't support values of type: ${tokenName(v)}`);
        r.name = readString(OWNER, k, v);
        break;
      case 'from': r.from = nonNegative(k, v); break;
      case 'size': r.size = nonNegative(k, v); break;
      case 'sort': r.sort = parsingField(OWNER, k, () => parseSort(v)); break;
      case '_source': r.source = parsingField(OWNER, k, () => parseSourceFilter(v)); break;
      case 'track_scores': r.trackScores = flag(k, v); break;
      case 'version': r.version = flag(k, v); break;
      case 'seq_no_primary_term': r.seqNoPrimaryTerm = flag(k, v); break;
      case 'explain': r.explain = flag(k, v); break;
      case 'ignore_unmapped': flag(k, v); break;
      default:
        throw new XContentParseError(`[${OWNER}] unknown field [${k}]`, undefined, 'key');
    }
  });
  return r;
}


