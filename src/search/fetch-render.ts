/**
 * The fetch phase's rendering: hits → the JSON of `hits.hits`, reading `_id` and stored `_source`
 * straight from segments and splicing the stored JSON in as is (parse/stringify only when
 * `_source` filtering asks for it). The coordinator uses it after merging shard results; a worker
 * uses it for single-shard searches, which query and fetch in one round trip (ES's
 * query_and_fetch shortcut), keeping the coordinator thread free.
 */
import { filterSource, type SourceFilter } from '../common/source-filter.js';
import { float32ToJson } from '../common/float-json.js';
import { writeUtf8 } from '../common/json-pieces.js';
import { readId, readSource, readSourceBytes, type Segment } from '../index/index.js';
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

/** A hit's members before `_source`: `{` (the location of an explained hit), `_index`, `_id`, … `_score`, `_rank`. */
function hitHead(h: RenderHit, spec: FetchSpec, indexJson: string, explained: HitLocation | null): string {
  let out = explained !== null ? `{"_shard":${JSON.stringify(`[${explained.index}][${explained.shard}]`)},"_node":${JSON.stringify(explained.node)},` : '{';
  out += `"_index":${indexJson},"_id":${JSON.stringify(readId(h.segment, h.doc))}`;
  if (spec.version) out += `,"_version":${h.segment.version.get(h.doc)}`;
  if (spec.seqNoPrimaryTerm) out += `,"_seq_no":${h.segment.seqNo.get(h.doc)},"_primary_term":1`;
  out += `,"_score":${spec.tracksScores && !Number.isNaN(h.score) ? float32ToJson(h.score) : 'null'}`;
  if (h.rank !== undefined) out += `,"_rank":${h.rank}`;
  return out;
}

/** Whether hits show `_source`. */
function fetchesSource(spec: FetchSpec): boolean {
  return spec.source.fetch && !spec.storedFieldsNone;
}

/** Whether `_source` is shown as stored (no includes/excludes to apply). */
function sourceAsStored(spec: FetchSpec): boolean {
  return spec.source.includes.length === 0 && spec.source.excludes.length === 0;
}

/** `_source` after includes/excludes. */
function filteredSource(raw: string, spec: FetchSpec): string {
  return JSON.stringify(filterSource(JSON.parse(raw) as Record<string, unknown>, spec.source));
}

/**
 * A hit's members after `_source` and its closing brace: `highlight` (from the stored `_source`
 * text, `raw`; undefined: not read yet), `sort`, `_explanation`.
 */
function hitTail(h: RenderHit, spec: FetchSpec, raw: string | null | undefined, explained: boolean): string {
  let out = '';
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

export function renderHit(h: RenderHit, spec: FetchSpec, indexJson: string, location?: HitLocation): string {
  const explained = spec.explain != null && location !== undefined;
  let out = hitHead(h, spec, indexJson, explained ? location : null);
  let raw: string | null | undefined;
  if (fetchesSource(spec)) {
    raw = readSource(h.segment, h.doc);
    if (raw !== null) out += `,"_source":${sourceAsStored(spec) ? raw : filteredSource(raw, spec)}`;
  }
  return out + hitTail(h, spec, raw, explained);
}

/** Where a search thread renders hits as bytes (grown as pages need; one page is copied out of it). */
const SCRATCH_BYTES = 64 * 1024;
/** A scratch grown past this by a large page is let go after it, so a thread does not keep it. */
const SCRATCH_KEEP_BYTES = 1024 * 1024;
let scratch = Buffer.allocUnsafeSlow(SCRATCH_BYTES);

/** Room for `bytes` more at `at`, keeping what is written. */
function ensureScratch(at: number, bytes: number): void {
  if (at + bytes <= scratch.length) return;
  const grown = Buffer.allocUnsafeSlow(Math.max(scratch.length * 2, at + bytes));
  scratch.copy(grown, 0, 0, at);
  scratch = grown;
}

/** Writes `s` as UTF-8 into the scratch at `at`; returns where it ends. */
function writeText(at: number, s: string): number {
  ensureScratch(at, s.length * 3);
  return at + writeUtf8(scratch, s, at);
}

const SOURCE_MEMBER = ',"_source":';

/**
 * `[hit, hit, …]` as UTF-8 bytes in a buffer of its own (to transfer to another thread): stored
 * `_source` bytes are copied in as they are, never decoded, unless `_source` filtering or
 * highlighting needs the text. The same JSON as `renderHit` gives each hit. Text between two
 * sources is gathered and written in one call: a page costs one write and one copy per hit.
 */
export function renderHitsBytes(hits: readonly RenderHit[], spec: FetchSpec): Uint8Array {
  const indexJson = JSON.stringify(spec.index);
  const source = fetchesSource(spec);
  const spliced = sourceAsStored(spec) && spec.highlight === null;
  let at = 0;
  let text = '[';
  for (let i = 0; i < hits.length; i++) {
    const h = hits[i];
    if (i > 0) text += ',';
    text += hitHead(h, spec, indexJson, null);
    let raw: string | null | undefined;
    if (source) {
      // A view valid until the next stored-fields read: copied (or decoded) right away.
      const bytes = readSourceBytes(h.segment, h.doc);
      if (bytes === null) raw = null;
      else if (spliced) {
        at = writeText(at, text + SOURCE_MEMBER);
        text = '';
        ensureScratch(at, bytes.length);
        scratch.set(bytes, at);
        at += bytes.length;
      } else {
        raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
        text += SOURCE_MEMBER + (sourceAsStored(spec) ? raw : filteredSource(raw, spec));
      }
    }
    text += hitTail(h, spec, raw, false);
  }
  at = writeText(at, text + ']');
  // A buffer of its own (transferable; not zero-filled, as every byte is written).
  const out = Buffer.allocUnsafeSlow(at);
  scratch.copy(out, 0, 0, at);
  if (scratch.length > SCRATCH_KEEP_BYTES) scratch = Buffer.allocUnsafeSlow(SCRATCH_BYTES);
  return out;
}
