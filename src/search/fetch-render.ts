/**
 * The fetch phase's rendering: hits → the JSON of `hits.hits`, reading `_id` and stored `_source`
 * straight from segments and splicing the stored JSON in as is (parse/stringify only when
 * `_source` filtering asks for it). The coordinator uses it after merging shard results; a worker
 * uses it for single-shard searches, which query and fetch in one round trip (ES's
 * query_and_fetch shortcut), keeping the coordinator thread free.
 */
import { javaDouble } from '../common/java-double.js';
import { filterSource, type SourceFilter } from '../common/source-filter.js';
import { float32ToJson, writeFloat32Json } from '../common/float-json.js';
import { writeUtf8 } from '../common/json-pieces.js';
import { locateSourceBytes, readId, readSource, touchStoredDoc, type Segment } from '../index/index.js';
import type { ExecSort, SortValue } from './exec/field-sort.js';
import { renderHighlight, type HighlightSpec } from './highlight/index.js';
import { renderFetchFields, type FetchField, type FetchFields } from './fetch-fields.js';
import type { FetchScriptField } from './script/script-fields.js';

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
  /** `fields` / `docvalue_fields`, resolved for this index; null = none. */
  readonly fields: FetchFields | null;
  /** `collapse`: its field, shown in every hit's `fields` (`[null]` for a document without a value); absent/null = none. */
  readonly collapse?: FetchField | null;
  /** `script_fields`, compiled for this index; absent/null = none. */
  readonly scriptFields?: readonly FetchScriptField[] | null;
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
  /** The rendered `inner_hits` object of a collapsed hit (its group's searches); absent = none. */
  readonly innerHits?: string;
  /** The rendered `matched_queries` value (search/matched-queries.ts); absent = no named clause matches. */
  readonly matchedQueries?: string;
}

function renderSortValue(v: SortValue, key: ExecSort, style: MissingStyle | undefined): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (key.kind === 'score') return float32ToJson(v);
  // A number script's value is a Java double: written as Double.toString writes it (NaN, Infinity quoted).
  if (key.kind === 'script') return Number.isFinite(v) ? javaDouble(v) : JSON.stringify(javaDouble(v));
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
 * A hit's members after `_source` and its closing brace: `fields`, `highlight` (both from the
 * stored `_source` text, `raw`; undefined: not read yet), `sort`, `_explanation`.
 */
function hitTail(h: RenderHit, spec: FetchSpec, raw: string | null | undefined, explained: boolean): string {
  let out = '';
  if (spec.fields || spec.collapse || spec.scriptFields) out += renderFetchFields(spec.fields, h.segment, h.doc, raw, spec.collapse ?? null, spec.scriptFields ?? null);
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
  if (h.matchedQueries !== undefined) out += `,"matched_queries":${h.matchedQueries}`;
  if (explained) out += `,"_explanation":${spec.explain!(h)}`;
  if (h.innerHits !== undefined) out += `,"inner_hits":${h.innerHits}`;
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

/** Where a search thread renders hits as bytes (grown as pages need; a page, or a batch's pages, is copied out of it). */
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

/** Copies `from[start, end)` into the scratch at `at` (room is the caller's); returns where it ends. */
function copyBytes(at: number, from: Uint8Array, start: number, end: number): number {
  const out = scratch;
  // A short run (an id, a member name, a small document) by a loop: a view and `set` cost more.
  if (end - start <= 64) {
    for (let i = start; i < end; i++) out[at++] = from[i];
    return at;
  }
  out.set(from.subarray(start, end), at);
  return at + end - start;
}

/** What the last page's touchStoredDoc pass read: kept, so the reads are not optimised away. */
let touchedSum = 0;

/** Members' fixed text as bytes, copied into a page as they are. */
const ascii = (s: string): Uint8Array => Buffer.from(s, 'latin1');
const ID_MEMBER = ascii(',"_id":"');
const SCORE_MEMBER = ascii('","_score":');
const NULL_SCORE = ascii('null');
const SCORE_MEMBER_TEXT = ',"_score":';
const SOURCE_MEMBER = ',"_source":';
const SOURCE_MEMBER_BYTES = ascii(SOURCE_MEMBER);
/** `{"_index":<name>` per index name, as bytes (names are few; the last page's is kept). */
let indexHead: { index: string; bytes: Uint8Array } = { index: '', bytes: new Uint8Array(0) };

function indexHeadBytes(index: string): Uint8Array {
  if (indexHead.index !== index) indexHead = { index, bytes: Buffer.from(`{"_index":${JSON.stringify(index)}`, 'utf8') };
  return indexHead.bytes;
}

/**
 * Writes `"_id"`'s value: the stored UTF-8 bytes between quotes as they are, unless one needs a
 * JSON escape (a quote, a backslash, a control character: then JSON.stringify's text). Returns
 * where it ends; the opening quote is already written.
 */
function writeIdValue(at: number, segment: Segment, doc: number): number {
  const ids = segment.ids;
  const bytes = ids.bytes;
  const start = ids.start(doc);
  const end = ids.start(doc + 1);
  ensureScratch(at, end - start);
  const out = scratch;
  const from = at;
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b < 0x20 || b === 0x22 || b === 0x5c) return writeText(from - 1, JSON.stringify(readId(segment, doc)).slice(0, -1));
    out[at++] = b;
  }
  return at;
}

/**
 * `[hit, hit, …]` as UTF-8 bytes in a buffer of its own (to transfer to another thread), the same
 * JSON as `renderHit` gives each hit. A hit is written straight into the thread's scratch: the
 * index name and member names as prepared bytes, the `_id` as its stored bytes, the score's digits
 * as bytes, and the stored `_source` bytes as they are — no string per hit — unless `_source`
 * filtering or highlighting needs the text, or the hit shows more members (sort values, `_rank`,
 * `_version`, …), which are written as text.
 */
export function renderHitsBytes(hits: readonly RenderHit[], spec: FetchSpec): Uint8Array {
  const head = indexHeadBytes(spec.index);
  const source = fetchesSource(spec);
  const asStored = sourceAsStored(spec);
  const spliced = asStored && spec.highlight === null;
  const plainTail = spec.highlight === null && spec.sortKeys === null && !spec.fields && !spec.collapse && !spec.scriptFields;
  let touched = 0;
  for (let i = 0; i < hits.length; i++) touched += touchStoredDoc(hits[i].segment, hits[i].doc);
  touchedSum = touched;
  const pageStart = pagesAt < 0 ? 0 : pagesAt;
  ensureScratch(pageStart, 1);
  let at = pageStart;
  scratch[at++] = 0x5b; // [
  for (let i = 0; i < hits.length; i++) {
    const h = hits[i];
    ensureScratch(at, head.length + ID_MEMBER.length + 1);
    if (i > 0) scratch[at++] = 0x2c; // ,
    at = copyBytes(at, head, 0, head.length);
    at = copyBytes(at, ID_MEMBER, 0, ID_MEMBER.length);
    at = writeIdValue(at, h.segment, h.doc);
    if (spec.version || spec.seqNoPrimaryTerm) {
      let members = '"';
      if (spec.version) members += `,"_version":${h.segment.version.get(h.doc)}`;
      if (spec.seqNoPrimaryTerm) members += `,"_seq_no":${h.segment.seqNo.get(h.doc)},"_primary_term":1`;
      at = writeText(at, members + SCORE_MEMBER_TEXT);
    } else {
      ensureScratch(at, SCORE_MEMBER.length);
      at = copyBytes(at, SCORE_MEMBER, 0, SCORE_MEMBER.length);
    }
    ensureScratch(at, 32);
    if (spec.tracksScores && !Number.isNaN(h.score)) at = writeFloat32Json(h.score, scratch, at);
    else at = copyBytes(at, NULL_SCORE, 0, NULL_SCORE.length);
    if (h.rank !== undefined) at = writeText(at, `,"_rank":${h.rank}`);
    let raw: string | null | undefined;
    if (source) {
      if (spliced) {
        // Valid until the next stored-fields read: copied right away.
        const range = locateSourceBytes(h.segment, h.doc);
        if (range.start === range.end) raw = null;
        else {
          ensureScratch(at, SOURCE_MEMBER_BYTES.length + range.end - range.start + 1);
          at = copyBytes(at, SOURCE_MEMBER_BYTES, 0, SOURCE_MEMBER_BYTES.length);
          at = copyBytes(at, range.buffer, range.start, range.end);
        }
      } else {
        raw = readSource(h.segment, h.doc);
        if (raw !== null) at = writeText(at, SOURCE_MEMBER + (asStored ? raw : filteredSource(raw, spec)));
      }
    }
    if (plainTail && h.sortValues === null && h.matchedQueries === undefined) {
      ensureScratch(at, 1);
      scratch[at++] = 0x7d; // }
    } else at = writeText(at, hitTail(h, spec, raw, false));
  }
  ensureScratch(at, 1);
  scratch[at++] = 0x5d; // ]
  if (pagesAt >= 0) {
    // In a batch: a view of the scratch, moved to the batch's buffer by endPages.
    pagesAt = at;
    return scratch.subarray(pageStart, at);
  }
  // A buffer of its own (transferable; not zero-filled, as every byte is written).
  const out = Buffer.allocUnsafeSlow(at);
  scratch.copy(out, 0, 0, at);
  if (scratch.length > SCRATCH_KEEP_BYTES) scratch = Buffer.allocUnsafeSlow(SCRATCH_BYTES);
  return out;
}

/**
 * Where the next page starts in the scratch while a batch of pages is open (beginPages); −1: no
 * batch, every page gets a buffer of its own. A new ArrayBuffer costs 1–3 µs (its backing store
 * and V8's external-memory accounting), as much as rendering a third of a page: a search worker
 * answering a batch of searches in one message gives all its pages one buffer.
 */
let pagesAt = -1;

/** Opens a batch of pages: renderHitsBytes returns views of the thread's scratch until endPages. */
export function beginPages(): void {
  pagesAt = 0;
}

/**
 * Closes the batch beginPages opened: `pages`, the views renderHitsBytes returned since (any
 * subset, in any order), are copied into `into` (at least their total length: a buffer that goes round, see
 * workers/page-buffers.ts) or else one new buffer; returns their views of it, in the same order.
 * Must be called before anything else renders on this thread (the views are the scratch's).
 */
export function endPages(pages: readonly Uint8Array[], into: Uint8Array | null = null): Uint8Array[] {
  pagesAt = -1;
  let size = 0;
  for (const p of pages) size += p.byteLength;
  const out = into ?? Buffer.allocUnsafeSlow(size);
  const views = new Array<Uint8Array>(pages.length);
  let at = 0;
  for (let i = 0; i < pages.length; i++) {
    const p = pages[i];
    out.set(p, at);
    views[i] = new Uint8Array(out.buffer, out.byteOffset + at, p.byteLength);
    at += p.byteLength;
  }
  if (scratch.length > SCRATCH_KEEP_BYTES) scratch = Buffer.allocUnsafeSlow(SCRATCH_BYTES);
  return views;
}
