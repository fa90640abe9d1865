/**
 * A completion suggestion on one shard (ES CompletionSuggester + Lucene NRTSuggester): the
 * entries the analyzed text matches in every segment (completion-ranges.ts), deleted documents
 * skipped, the best of them in selection order (top-entries.ts), and from those the candidates
 * the coordinator's reduce needs:
 *
 * - without skip_duplicates, the shard's first `size` documents (OptionPicker): documents live on
 *   one shard, so these contain every option the shard can contribute;
 * - with it, a text taken on another shard can reject this shard's candidates, so the shard sends
 *   its candidates in order, at most size + 1 per document and per text, up to
 *   size + 2·size·(size + 1) of them: the coordinator's walk takes at most `size` options and
 *   rejects at most size + 1 candidates per taken text or document, so it never reads past them.
 *
 * The heap of best entries starts small and grows (×4) until the walk above finished within
 * entries known to be the best, or the heap holds every match.
 */
import type { SearchDeadline } from '../exec/deadline.js';
import type { ShardView } from '../exec/shard-view.js';
import { readCompletionText, termAt } from '../../index/index.js';
import { SUGGEST_STRIDE, type CompletionShardResult, type ExecCompletion } from './exec-suggest.js';
import { matchingRanges } from './completion-ranges.js';
import { OptionPicker } from './option-picker.js';
import { TopEntries, termOfEntry, type ShardField } from './top-entries.js';

/** A bound on the candidates one shard sends with skip_duplicates, whatever `size` asks. */
const MAX_CANDIDATES = 10_000;
/** Heap room beyond what the walk needs: documents with several matching inputs take extra entries. */
const SLACK = 16;

interface Range {
  readonly seg: number;
  readonly from: number;
  readonly to: number;
  readonly boost: number;
}

const EMPTY: CompletionShardResult = { candidates: new Float64Array(0), forms: [], texts: [] };

/** `deadline`: the search's; a regex's expansion stops when it expires (the shard reports `timed_out`). */
export function suggestCompletion(exec: ExecCompletion, shard: ShardView, deadline: SearchDeadline): CompletionShardResult {
  const fields: Array<ShardField | null> = shard.segments.map((segment, s) => {
    const field = segment.fields.get(exec.field);
    return field?.completion ? { segment, field, live: shard.liveDocs[s] } : null;
  });
  const shouldStop = () => deadline.expiredEvery();
  const ranges: Range[] = [];
  fields.forEach((f, seg) => {
    if (f) matchingRanges(exec.match, f.field, shouldStop, (from, to, boost) => ranges.push({ seg, from, to, boost }));
  });
  if (ranges.length === 0) return EMPTY;

  const { size, skipDuplicates } = exec;
  const wanted = skipDuplicates ? Math.min(MAX_CANDIDATES, size + 2 * size * (size + 1)) : size;
  for (let capacity = wanted + SLACK; ; capacity *= 4) {
    const top = new TopEntries(capacity, fields);
    for (const r of ranges) top.scan(r.seg, r.from, r.to, r.boost);
    const picked = skipDuplicates ? capped(top, fields, size, wanted) : firstDocuments(top, fields, size);
    // Complete when the walk stopped inside the heap, or the heap holds every match.
    if (picked.complete || !top.overflowed) return result(top, fields, picked.slots);
  }
}

interface Picked {
  readonly slots: number[];
  readonly complete: boolean;
}

function entryText(f: ShardField, entry: number): string {
  return readCompletionText(f.segment, f.field, entry);
}

function docKey(top: TopEntries, fields: ReadonlyArray<ShardField | null>, slot: number): number {
  const seg = top.segs[slot];
  return seg * 0x100000000 + fields[seg]!.field.completion!.docs[top.entries[slot]];
}

function firstDocuments(top: TopEntries, fields: ReadonlyArray<ShardField | null>, size: number): Picked {
  const picker = new OptionPicker(size, false);
  const slots: number[] = [];
  for (const slot of top.sorted()) {
    if (picker.take(docKey(top, fields, slot), '')) slots.push(slot);
    if (picker.full) return { slots, complete: true };
  }
  return { slots, complete: false };
}

function capped(top: TopEntries, fields: ReadonlyArray<ShardField | null>, size: number, wanted: number): Picked {
  const perDoc = new Map<number, number>();
  const perText = new Map<string, number>();
  const slots: number[] = [];
  for (const slot of top.sorted()) {
    const doc = docKey(top, fields, slot);
    const text = entryText(fields[top.segs[slot]]!, top.entries[slot]);
    const d = perDoc.get(doc) ?? 0;
    const t = perText.get(text) ?? 0;
    if (d > size || t > size) continue;
    perDoc.set(doc, d + 1);
    perText.set(text, t + 1);
    slots.push(slot);
    if (slots.length === wanted) return { slots, complete: true };
  }
  return { slots, complete: false };
}

function result(top: TopEntries, fields: ReadonlyArray<ShardField | null>, slots: readonly number[]): CompletionShardResult {
  const candidates = new Float64Array(slots.length * SUGGEST_STRIDE);
  const forms: string[] = [];
  const texts: string[] = [];
  slots.forEach((slot, i) => {
    const seg = top.segs[slot];
    const entry = top.entries[slot];
    const f = fields[seg]!;
    const c = f.field.completion!;
    const doc = c.docs[entry];
    const o = i * SUGGEST_STRIDE;
    candidates[o] = top.scores[slot];
    candidates[o + 1] = seg;
    candidates[o + 2] = doc;
    candidates[o + 3] = f.segment.indexOrder.get(doc);
    forms.push(termAt(f.segment, f.field, termOfEntry(c.entryStart, entry)));
    texts.push(entryText(f, entry));
  });
  return { candidates, forms, texts };
}
