/**
 * Query text that analyses to a token graph (Lucene `GraphTokenStreamFiniteStrings`): a search
 * analyzer with synonym_graph puts a multi-word synonym beside its alternative — `ny` spanning the
 * two positions of `new york` — and a query must match either path, never `new` alone nor `ny york`.
 *
 * The graph is cut at its articulation points (positions no token spans across). A segment of one
 * position holds stacked single-word alternatives; a segment with side paths is enumerated into its
 * paths (each a term sequence, renumbered from position 0). `match` then makes each path a phrase
 * (text.ts), `match_phrase` a phrase of every combination of the segments' alternatives
 * (phraseOverGraph below; Lucene builds a SpanNear of SpanOrs, which matches the same documents
 * for slop 0). The number of paths and combinations is bounded by `max_clause_count`.
 */
import { TooManyClausesError } from '../../errors/index.js';
import type { QueryToken } from './query-token.js';

export interface GraphSegment {
  /** The tokens of the segment, in position order. */
  readonly tokens: readonly QueryToken[];
  /** The paths through a segment with side paths (positions from 0); null for a single position. */
  readonly paths: QueryToken[][] | null;
}

const lengthOf = (t: QueryToken): number => t.positionLength ?? 1;

/** Whether any token spans more than one position. */
export function hasSidePaths(tokens: readonly QueryToken[]): boolean {
  return tokens.some((t) => lengthOf(t) > 1);
}

/** The graph's segments between articulation points, in order. */
export function graphSegments(tokens: readonly QueryToken[], maxPaths: number): GraphSegment[] {
  const segments: GraphSegment[] = [];
  let i = 0;
  while (i < tokens.length) {
    const start = tokens[i].position;
    // Grow the segment while a token in it reaches past the next token's position.
    let reach = start + 1;
    let j = i;
    while (j < tokens.length && tokens[j].position < reach) {
      reach = Math.max(reach, tokens[j].position + lengthOf(tokens[j]));
      j++;
    }
    const members = tokens.slice(i, j);
    const single = members.every((t) => t.position === start && lengthOf(t) === 1);
    segments.push({ tokens: members, paths: single ? null : pathsOf(members, start, reach, maxPaths) });
    i = j;
  }
  return segments;
}

/** Every path from `start` to `end` through `tokens` (a token at p spanning l leads to p + l). */
function pathsOf(tokens: readonly QueryToken[], start: number, end: number, maxPaths: number): QueryToken[][] {
  const at = new Map<number, QueryToken[]>();
  for (const t of tokens) {
    const list = at.get(t.position);
    if (list === undefined) at.set(t.position, [t]);
    else list.push(t);
  }
  const positions = [...at.keys()].sort((a, b) => a - b);
  // A position a token leads to but none starts at (a removed stop word) continues at the next one.
  const nextFrom = (p: number): number => positions.find((q) => q >= p) ?? end;
  const paths: QueryToken[][] = [];
  const walk = (p: number, path: QueryToken[]): void => {
    if (p >= end) {
      if (paths.length === maxPaths) throw new TooManyClausesError(maxPaths);
      paths.push(path.map((t, index) => ({ term: t.term, position: index, endOffset: t.endOffset })));
      return;
    }
    for (const t of at.get(p) ?? []) walk(nextFrom(p + lengthOf(t)), [...path, t]);
  };
  walk(start, []);
  return paths;
}

/**
 * The phrases a phrase query over a token graph stands for: one alternative per segment (a stacked
 * term, or a path), concatenated, in every combination.
 */
export function phrasesOverGraph(tokens: readonly QueryToken[], maxPhrases: number): QueryToken[][] {
  const alternatives = graphSegments(tokens, maxPhrases).map((s) => s.paths ?? s.tokens.map((t) => [{ ...t, position: 0 }]));
  let phrases: QueryToken[][] = [[]];
  for (const options of alternatives) {
    if (phrases.length * options.length > maxPhrases) throw new TooManyClausesError(maxPhrases);
    phrases = phrases.flatMap((phrase) => options.map((path) => [
      ...phrase,
      ...path.map((t) => ({ term: t.term, position: phrase.length + t.position, endOffset: t.endOffset })),
    ]));
  }
  return phrases;
}
