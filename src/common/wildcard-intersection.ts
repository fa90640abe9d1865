/**
 * Whether two simple wildcard patterns (only `*` is special) match some string in common — ES
 * checks index templates for overlap this way (MetadataIndexTemplateService: the intersection of
 * the patterns' automatons is not empty). A pattern without `*` is a plain string, so this is also
 * a wildcard match that never backtracks.
 *
 * The walk is over the product of the two patterns' positions (at most (|a|+1)·(|b|+1) states, each
 * visited once): a `*` may be left behind (it matched all it will), or absorb the other side's next
 * character; two literals must be equal to advance together.
 */
export function wildcardsIntersect(a: string, b: string): boolean {
  const width = b.length + 1;
  const seen = new Uint8Array((a.length + 1) * width);
  const stack: number[] = [0];
  seen[0] = 1;
  const push = (i: number, j: number) => {
    const k = i * width + j;
    if (seen[k] === 0) {
      seen[k] = 1;
      stack.push(k);
    }
  };
  while (stack.length > 0) {
    const k = stack.pop()!;
    const i = Math.floor(k / width);
    const j = k % width;
    if (i === a.length && j === b.length) return true;
    const ca = i < a.length ? a[i] : null;
    const cb = j < b.length ? b[j] : null;
    if (ca === '*') push(i + 1, j);
    if (cb === '*') push(i, j + 1);
    if (ca === '*' && cb !== null && cb !== '*') push(i, j + 1);
    else if (cb === '*' && ca !== null && ca !== '*') push(i + 1, j);
    else if (ca !== null && cb !== null && ca !== '*' && ca === cb) push(i + 1, j + 1);
  }
  return false;
}
