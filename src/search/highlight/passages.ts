/**
 * Matches → the best passages of a field, as Lucene's FieldHighlighter (the pre-LUCENE-9093 loop ES
 * keeps for its bounded break iterator) and PassageScorer do: a match that starts at or after the
 * current passage's end opens a new passage (bounded by passage-bounds.ts within its value); the
 * passages, scored, compete in a queue of `number_of_fragments` (lowest score, then earliest start,
 * evicted first) and come out in document order.
 *
 * The score is Lucene's BM25-like PassageScorer (k1 1.2, b 0.75, pivot 87 — an average English
 * sentence length) in float32: per distinct match identity, tf(freq in passage, passage length) ×
 * weight(content length, freq in document), times a bonus for passages near the start. In
 * weight-matches mode Lucene counts every match's document frequency as 1.
 */
import { wordBoundaries } from './break-iterators.js';
import type { FieldText } from './field-text.js';
import type { HighlightFieldSpec } from './highlight-spec.js';
import type { Match } from './query-matches.js';
import { passageBounds, type PassageBounds, type PassageMode } from './passage-bounds.js';

export interface Passage {
  readonly start: number;
  readonly end: number;
  /** Matches in start order; a match may run past the passage end (formatting clips it). */
  readonly matches: readonly Match[];
  /** NaN for the no-match passage. */
  readonly score: number;
}

const K1 = Math.fround(1.2);
const B = Math.fround(0.75);
const PIVOT = 87;

export function selectPassages(text: FieldText, matches: readonly Match[], spec: HighlightFieldSpec): Passage[] {
  if (matches.length === 0) return [];
  const whole = spec.numberOfFragments === 0 || !spec.tokenized;
  const mode: PassageMode = whole ? 'whole' : spec.passageMode;
  const maxPassages = spec.numberOfFragments === 0 ? Infinity : spec.numberOfFragments;
  const freqInDoc = documentFrequencies(matches, spec.weightMatches);
  const contentLength = text.content.length;
  const queue: Passage[] = []; // ascending: queue[0] is the first to be evicted
  const offer = (p: { start: number; end: number; matches: Match[] }) => {
    const passage = { ...p, score: scorePassage(p, contentLength, freqInDoc) };
    if (queue.length === maxPassages && passage.score < queue[0].score) return;
    let at = queue.length;
    while (at > 0 && evictsFirst(passage, queue[at - 1])) at--;
    queue.splice(at, 0, passage);
    if (queue.length > maxPassages) queue.shift();
  };

  let current: { start: number; end: number; matches: Match[] } | null = null;
  let value = -1;
  let bounds: PassageBounds | null = null;
  for (const m of matches) {
    if (current === null || m.start >= current.end) {
      if (current !== null) offer(current);
      while (value + 1 < text.valueStarts.length && text.valueStarts[value + 1] <= m.start) {
        value++;
        bounds = null;
      }
      const base = text.valueStarts[value];
      const length = text.valueEnds[value] - base;
      bounds ??= passageBounds(text.content.slice(base, base + length), mode, spec.fragmentSize);
      const local = m.start - base;
      const start = base + Math.max(bounds.preceding(local + 1), 0);
      const following = bounds.following(local);
      current = { start, end: base + (following < 0 ? length : Math.min(following, length)), matches: [] };
    }
    current.matches.push(m);
  }
  if (current !== null) offer(current);
  return queue.sort((a, b) => a.start - b.start);
}

/**
 * CustomFieldHighlighter.getSummaryPassagesNoHighlight: with no match, the first non-empty value
 * up to `no_match_size` characters, extended to the next word boundary.
 */
export function noMatchPassage(text: FieldText, noMatchSize: number): Passage | null {
  const content = text.content;
  let pos = 0;
  while (pos < content.length && content[pos] === '\u0000') pos++;
  if (pos >= content.length) return null;
  let end = content.indexOf('\u0000', pos);
  if (end === -1) end = content.length;
  if (noMatchSize + pos < end) {
    const following = wordBoundaries(content).following(noMatchSize + pos);
    end = following < 0 ? content.length : following;
  }
  return { start: pos, end, matches: [], score: NaN };
}

/** The PriorityQueue order: lower score first, then earlier start. */
function evictsFirst(a: Passage, b: Passage): boolean {
  return a.score < b.score || (a.score === b.score && a.start < b.start);
}

/** Each identity's count in the whole field (term mode), or 1 (weight-matches mode). */
function documentFrequencies(matches: readonly Match[], weightMatches: boolean): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of matches) out.set(m.key, weightMatches ? 1 : (out.get(m.key) ?? 0) + 1);
  return out;
}

/** Lucene PassageScorer.score, float32 as in Java. */
function scorePassage(p: { start: number; end: number; matches: readonly Match[] }, contentLength: number, freqInDoc: Map<string, number>): number {
  const inPassage = new Map<string, number>();
  for (const m of p.matches) inPassage.set(m.key, (inPassage.get(m.key) ?? 0) + 1);
  const numDocs = Math.fround(1 + Math.fround(contentLength / PIVOT));
  const lengthNorm = Math.fround(K1 * Math.fround(Math.fround(1 - B) + Math.fround(B * Math.fround((p.end - p.start) / PIVOT))));
  let score = 0;
  for (const [key, freq] of inPassage) {
    const weight = Math.fround(Math.fround(K1 + 1) * Math.fround(Math.log(1 + (numDocs + 0.5) / (freqInDoc.get(key)! + 0.5))));
    const tf = Math.fround(freq / Math.fround(freq + lengthNorm));
    score = Math.fround(score + Math.fround(tf * weight));
  }
  return Math.fround(score * Math.fround(1 + Math.fround(1 / Math.fround(Math.log(PIVOT + p.start)))));
}
