/**
 * The fetch phase's rendering: hits → the JSON of `hits.hits`, reading `_id` and stored `_source`
 * straight from segments and splicing the stored JSON in as is (parse/stringify only when
 * `_source` filtering asks for it). The coordinator uses it after merging shard results; a worker
 * uses it for single-shard searches, which query and fetch in one round trip (ES's
 * query_and_fetch shortcut), keeping the coordinator thread free.
 */
import { filterSource, type SourceFilter } from '../common/source-filter.js';
import { float32ToJson } from '../common/float-json.js';
import { readId, readSource, type Segment } from '../index/index.js';
import type { ExecSort, SortValue } from './exec/field-sort.js';
import { renderHighlight, type HighlightSpec } from './highlight/index.js';

/** How a numeric sort key renders the ±Infinity used for missing values. */
export type MissingStyle = 'long' | 'double';

export interface FetchSpec {
  readonly index: string;
  readonly source: SourceFilter;
  readonly storedFieldsNone: boolean;
  readonly version: boolean;
  readonly seqNoPrimaryTerm: boolean;
  /** Whether hits carry `_score` (score sort, track_scores, or a sort on _score). */
  readonly tracksScores: boolean;
  readonly sortKeys: readonly ExecSort[] | null;
  /** Per sort key; only numeric keys use it. */
  readonly missingStyles: readonly MissingStyle[] | null;
  /** `highlight`, resolved for this index; null = none. */
  readonly highlight: HighlightSpec | null;
  /** `explain: true`: a hit's rendered explanation (the coordinator fetches such pages itself). */
  readonly explain?: ((h: RenderHit) => string) | null;
}

/** Where an explained hit was found: ES shows `_shard` and `_node` on hits with an explanation. */
export interface HitLocation {
  readonly index: string;
  readonly shard: number;
  readonly node: string;
}

export interface RenderHit {
  readonly segment: Segment;
  readonly doc: number;
  readonly score: number;
  readonly sortValues: readonly SortValue[] | null;
  /** The hit's 1-based position in a fused list (`_rank`, the legacy RRF form only). */
  readonly rank?: number;
}

function renderSortValue(v: SortValue, key: ExecSort, style: MissingStyle | undefined): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (key.kind === 'score') return float32ToJson(v);
  if (!Number.isFinite(v)) {
    // ES shows Long.MAX/MIN_VALUE for missing integer/date values, ±Infinity for floating types.
    if (style === 'double') return v > 0 ? '"Infinity"' : '"-Infinity"';
    return v > 0 ? '9223372036854775807' : '-9223372036854775808';
  }
  return String(v);
}

export function renderHit(h: RenderHit, spec: FetchSpec, indexJson: string, location?: HitLocation): string {
  const explained = spec.explain != null && location !== undefined;
  let out = explained ? `{"_shard":${JSON.stringify(`[${location.index}][${location.shard}]`)},"_node":${JSON.stringify(location.node)},` : '{';
  out += `"_index":${indexJson},"_id":${JSON.stringify(readId(h.segment, h.doc))}`;
  if (spec.version) out += `,"_version":${h.segment.version.get(h.doc)}`;
  if (spec.seqNoPrimaryTerm) out += `,"_seq_no":${h.segment.seqNo.get(h.doc)},"_primary_term":1`;
  out += `,"_score":${spec.tracksScores && !Number.isNaN(h.score) ? float32ToJson(h.score) : 'null'}`;
  if (h.rank !== undefined) out += `,"_rank":${h.rank}`;
  let raw: string | null | undefined;
  if (spec.source.fetch && !spec.storedFieldsNone) {
    raw = readSource(h.segment, h.doc);
    if (raw !== null) {
      const filtered = spec.source.includes.length === 0 && spec.source.excludes.length === 0
        ? raw
        : JSON.stringify(filterSource(JSON.parse(raw) as Record<string, unknown>, spec.source));
      out += `,"_source":${filtered}`;
    }
  }
  if (spec.highlight !== null) {
    // Highlighting reads the stored _source whatever `_source` filtering returns.
    const highlight = renderHighlight(spec.highlight, h.segment, h.doc, raw === undefined ? readSource(h.segment, h.doc) : raw);
    if (highlight !== null) out += `,"highlight":${highlight}`;
  }
  if (h.sortValues && spec.sortKeys) {
    const keys = spec.sortKeys;
    const styles = spec.missingStyles;
    // The keys decide what is shown: a scroll sorts by a tiebreaker it does not show.
    const values = h.sortValues;
    out += `,"sort":[${keys.map((k, i) => renderSortValue(values[i], k, styles?.[i])).join(',')}]`;
  }
  if (explained) out += `,"_explanation":${spec.explain!(h)}`;
  return out + '}';
}

/** `[hit, hit, …]` for one index's hits. */
export function renderHits(hits: readonly RenderHit[], spec: FetchSpec): string {
  const indexJson = JSON.stringify(spec.index);
  let out = '[';
  for (let i = 0; i < hits.length; i++) {
    if (i > 0) out += ',';
    out += renderHit(hits[i], spec, indexJson);
  }
  return out + ']';
}
