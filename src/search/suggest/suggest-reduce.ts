/**
 * Reducing one completion suggestion over the shards' answers (ES CompletionSuggestion.reduce,
 * made independent of sharding): every shard's candidates in one selection order — score
 * descending, analyzed form ascending, then index and write order — walked with the shards' own
 * rule (OptionPicker: one option per document, per text with skip_duplicates) until `size`
 * options, which are then shown in ES's display order: score descending, text ascending, then
 * index and write order (Suggest.COMPARATOR, ties by shard and doc).
 */
import { compareCodePoints, type Segment } from '../../index/index.js';
import { SUGGEST_STRIDE, type CompletionShardResult } from './exec-suggest.js';
import { OptionPicker } from './option-picker.js';

/** A shard the suggestion ran on, as the coordinator knows it (its segments by ordinal). */
export interface SuggestTarget {
  readonly indexPos: number;
  readonly shardId: number;
  readonly snapshot: { readonly segments: ReadonlyArray<{ readonly reader: Segment }> };
}

export interface SuggestOption<T extends SuggestTarget = SuggestTarget> {
  readonly target: T;
  readonly segment: Segment;
  readonly doc: number;
  readonly score: number;
  readonly text: string;
  readonly form: string;
  readonly indexOrder: number;
}

function bySelection(a: SuggestOption, b: SuggestOption): number {
  if (a.score !== b.score) return b.score - a.score;
  return compareCodePoints(a.form, b.form) || a.target.indexPos - b.target.indexPos || a.indexOrder - b.indexOrder;
}

function byDisplay(a: SuggestOption, b: SuggestOption): number {
  if (a.score !== b.score) return b.score - a.score;
  return compareCodePoints(a.text, b.text) || a.target.indexPos - b.target.indexPos || a.indexOrder - b.indexOrder;
}

/** The options of suggestion `which`, in display order. Shards that failed (null) contribute nothing. */
export function reduceCompletion<T extends SuggestTarget>(
  targets: readonly T[], results: ReadonlyArray<{ readonly suggest?: readonly CompletionShardResult[] } | null>,
  which: number, size: number, skipDuplicates: boolean,
): SuggestOption<T>[] {
  const all: SuggestOption<T>[] = [];
  results.forEach((r, t) => {
    const answer = r?.suggest?.[which];
    if (!answer) return;
    const target = targets[t];
    for (let i = 0; i < answer.texts.length; i++) {
      const o = i * SUGGEST_STRIDE;
      all.push({
        target, segment: target.snapshot.segments[answer.candidates[o + 1]].reader, doc: answer.candidates[o + 2],
        score: answer.candidates[o], text: answer.texts[i], form: answer.forms[i], indexOrder: answer.candidates[o + 3],
      });
    }
  });
  // A stable sort keeps a shard's own order between its equal candidates (one document's inputs).
  all.sort(bySelection);
  const picker = new OptionPicker(size, skipDuplicates);
  const picked: SuggestOption<T>[] = [];
  for (const c of all) {
    if (picker.full) break;
    if (picker.take(`${c.target.indexPos}:${c.target.shardId}:${c.segment.id}:${c.doc}`, c.text)) picked.push(c);
  }
  return picked.sort(byDisplay);
}
