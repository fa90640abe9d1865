/**
 * ES's "did you mean" suggestions for unknown names (SuggestingErrorOnUnknown, BaseRestHandler):
 * candidates whose Lucene Levenshtein similarity to the unknown name is above 0.5, most similar
 * first, then by name.
 */

/** Lucene's LevenshteinDistance.getDistance: 1 - edits / the longer length, over code points. */
export function levenshteinSimilarity(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  if (s.length === 0 || t.length === 0) return s.length === t.length ? 1 : 0;
  let prev = Array.from({ length: s.length + 1 }, (_, i) => i);
  for (let j = 1; j <= t.length; j++) {
    const cur = [j];
    for (let i = 1; i <= s.length; i++) {
      cur[i] = Math.min(cur[i - 1] + 1, prev[i] + 1, prev[i - 1] + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return 1 - prev[s.length] / Math.max(s.length, t.length);
}

/** The close candidates, best first. */
export function suggestions(unknown: string, candidates: readonly string[]): string[] {
  return candidates
    .map((c) => ({ c, similarity: levenshteinSimilarity(unknown, c) }))
    .filter((s) => s.similarity > 0.5)
    .sort((a, b) => b.similarity - a.similarity || (a.c < b.c ? -1 : a.c > b.c ? 1 : 0))
    .map((s) => s.c);
}

/** " did you mean [x]?" / " did you mean any of [x, y]?" or "" (SuggestingErrorOnUnknown.suggest). */
export function didYouMean(unknown: string, candidates: readonly string[]): string {
  const list = suggestions(unknown, candidates);
  if (list.length === 0) return '';
  return ` did you mean ${list.length === 1 ? `[${list[0]}]` : `any of [${list.join(', ')}]`}?`;
}
