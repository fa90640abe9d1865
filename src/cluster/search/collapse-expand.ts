/**
 * `collapse.inner_hits` (ES ExpandSearchPhase): once the page of a collapsed search is known, each
 * hit's group is searched once per definition — the request's query (scoring as it did) filtered
 * to the hit's collapse value (documents without one: `must_not exists`), with its `post_filter`,
 * over the same indices or point in time — and the hit shows the answers under `inner_hits`, by
 * definition name. At most `max_concurrent_group_searches` group searches run at once (default 8,
 * capped at 64), so a page of many groups does not fill the search pool's queue.
 */
import {
  DEFAULT_TRACK_TOTAL_HITS_UP_TO, filteredQuery, parseQuery, parseSearchRequest, TRACK_TOTAL_HITS_ACCURATE,
  type CollapseInnerHits, type QueryNode, type SearchRequest,
} from '../../dsl/index.js';
import type { SortValue } from '../../search/index.js';
import type { SearchOutcome } from './search-phase.js';

const DEFAULT_CONCURRENCY = 8;
const MAX_CONCURRENCY = 64;
/** Where the `hits` object starts in a rendered search response (a quote in a JSON string is always escaped, so this is structural). */
const HITS_MEMBER = ',"hits":';

/**
 * The search of one group for one definition (ExpandSearchPhase.buildExpandSearchSourceBuilder);
 * `defaults` is an empty body's request, parsed once per page.
 */
function groupRequest(defaults: SearchRequest, req: SearchRequest, field: string, value: SortValue, ih: CollapseInnerHits, restTotalHitsAsInt: boolean): SearchRequest {
  const inGroup: QueryNode = value === null
    ? parseQuery({ bool: { must_not: { exists: { field } } } })
    : parseQuery({ term: { [field]: { value } } });
  return {
    ...defaults,
    query: filteredQuery(req.query, [inGroup]), postFilter: req.postFilter,
    from: ih.from, size: ih.size, sort: ih.sort, source: ih.source, trackScores: ih.trackScores, version: ih.version,
    seqNoPrimaryTerm: ih.seqNoPrimaryTerm, explain: ih.explain,
    trackTotalHitsUpTo: restTotalHitsAsInt ? TRACK_TOTAL_HITS_ACCURATE : DEFAULT_TRACK_TOTAL_HITS_UP_TO,
  };
}

/** The `hits` object of a rendered response with no member after it (no aggregations or suggestions). */
function hitsObject(outcome: SearchOutcome): string {
  const text = outcome.body.toString();
  return text.slice(text.indexOf(HITS_MEMBER) + HITS_MEMBER.length, text.length - 1);
}

/** Runs `tasks` with at most `limit` at once; results in task order; the first failure fails all. */
async function runBounded<T>(tasks: ReadonlyArray<() => Promise<T>>, limit: number): Promise<T[]> {
  const out = new Array<T>(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return out;
}

/**
 * Each page hit's `inner_hits` object, in page order, from the hits' collapse values. `search`
 * runs one group search as a plain search of the same indices.
 */
export async function expandGroups(
  req: SearchRequest, values: readonly SortValue[], restTotalHitsAsInt: boolean, search: (group: SearchRequest) => Promise<SearchOutcome>,
): Promise<string[]> {
  const collapse = req.collapse!;
  const field = collapse.field!;
  // Definitions by name, a later one replacing an earlier one of the same name (ES keeps a map).
  const defs = [...new Map(collapse.innerHits.map((ih) => [ih.name, ih])).values()];
  const defaults = parseSearchRequest(null);
  const tasks = values.flatMap((value) => defs.map((ih) => () => search(groupRequest(defaults, req, field, value, ih, restTotalHitsAsInt)).then(hitsObject)));
  const limit = Math.min(collapse.maxConcurrentGroupSearches || DEFAULT_CONCURRENCY, MAX_CONCURRENCY);
  const hits = await runBounded(tasks, limit);
  return values.map((_, i) => `{${defs.map((ih, d) => `${JSON.stringify(ih.name)}:{"hits":${hits[i * defs.length + d]}}`).join(',')}}`);
}
