/**
 * Lucene's FuzzyCompletionQuery over one segment's sorted analyzed forms. The query form (in
 * UTF-8 bytes, or code points with `unicode_aware`) becomes a Levenshtein automaton: its first
 * `prefix_length` units fixed, the rest within `fuzziness` edits (a transposition counts one) —
 * unless it is no longer than `prefix_length` or shorter than `min_length`, then it matches
 * exactly. A term matches when one of its prefixes is accepted, and Lucene's prefix-path
 * intersection stops at the *shortest* accepted prefix; the match's boost is the length of the
 * common prefix of that path and the query (FuzzyCompletionWeight.setNextMatch), so an exact match
 * and one with an edit at its end score alike, and the score is weight × boost.
 *
 * The sorted terms are walked like the FST Lucene intersects: one dynamic-programming row per unit
 * along a term, reused across the common prefix of the next term; once a prefix is accepted (or its
 * row exceeds the edits everywhere, a dead end) every term below it shares the outcome, so the walk
 * binary-searches past them. A short prefix over a large dictionary costs one step per live branch,
 * not one per term.
 */
import { Buffer } from 'node:buffer';
import type { CompletionFuzzyOptions } from '../../dsl/suggest/index.js';
import { prefixRange, type SegmentField } from '../../index/index.js';

/** Receives runs of matching term ordinals [from, to) (ascending) with their boost. */
export type FuzzyMatchSink = (from: number, to: number, boost: number) => void;

/**
 * Decodes a term's units into `units` and, per unit, the byte offset just after it (relative to the
 * term's start) into `byteEnd`; returns how many. The buffers are reused from term to term.
 */
function termUnits(bytes: Uint8Array, start: number, end: number, unicodeAware: boolean, units: Int32Array, byteEnd: Int32Array, limit = Infinity): number {
  let n = 0;
  for (let i = start; i < end && n < limit;) {
    const b = bytes[i];
    if (!unicodeAware || b < 0x80) {
      units[n] = b;
      i++;
    } else {
      const len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      let cp = b & (0xff >> (len + 1));
      for (let k = 1; k < len; k++) cp = (cp << 6) | (bytes[i + k] & 0x3f);
      units[n] = cp;
      i += len;
    }
    byteEnd[n++] = i - start;
  }
  return n;
}

interface Units {
  readonly units: Int32Array;
  readonly byteEnd: Int32Array;
  readonly length: number;
}

function queryUnits(form: string, unicodeAware: boolean): Units {
  const bytes = Buffer.from(form, 'utf8');
  const units = new Int32Array(bytes.length);
  const byteEnd = new Int32Array(bytes.length);
  return { units, byteEnd, length: termUnits(bytes, 0, bytes.length, unicodeAware, units, byteEnd) };
}

/** The longest string whose UTF-8 bytes are a prefix of `bytes` without a cut character: a range bound. */
function wholeCharacters(bytes: Uint8Array): string {
  let end = bytes.length;
  while (end > 0 && (bytes[end - 1] & 0xc0) === 0x80) end--;
  if (end > 0 && bytes[end - 1] >= 0xc0) {
    const lead = bytes[end - 1];
    const len = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    if (bytes.length - (end - 1) >= len) end = bytes.length;
    else end--;
  }
  return Buffer.from(bytes.subarray(0, end)).toString('utf8');
}

/**
 * First term ordinal in (t, to) that does not start with term t's first `length` bytes. Galloping
 * first: the run below a dead end is usually a handful of terms.
 */
function endOfPrefix(bytes: Uint8Array, offsets: Uint32Array, t: number, length: number, to: number): number {
  const base = offsets[t];
  const shares = (i: number) => {
    const start = offsets[i];
    if (offsets[i + 1] - start < length) return false;
    for (let k = 0; k < length; k++) if (bytes[start + k] !== bytes[base + k]) return false;
    return true;
  };
  let lo = t + 1;
  let step = 1;
  while (lo + step - 1 < to && shares(lo + step - 1)) {
    lo += step;
    step *= 2;
  }
  let hi = Math.min(to, lo + step - 1);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (shares(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function fuzzyPrefixMatches(field: SegmentField, form: string, o: CompletionFuzzyOptions, sink: FuzzyMatchSink): void {
  const query = queryUnits(form, o.unicodeAware);
  const n = query.length;
  if (n <= o.prefixLength || n < o.minLength) {
    // Exact: the accepted path is the whole query.
    const [from, to] = prefixRange(field, form);
    if (to > from) sink(from, to, n);
    return;
  }
  const p = o.prefixLength;
  const fixed = query.units.subarray(0, p);
  const rest = query.units.subarray(p, n);
  const m = rest.length;
  const k = o.editDistance;
  const bytes = field.termBytes!;
  const offsets = field.termOffsets!;
  const fixedBytes = p === 0 ? 0 : query.byteEnd[p - 1];
  const [from, to] = prefixRange(field, wholeCharacters(Buffer.from(form, 'utf8').subarray(0, fixedBytes)));
  if (from >= to) return;

  // A path is accepted or dead within m + k units after the fixed prefix (deeper, every cell of
  // the row exceeds k): no term needs decoding further.
  const limit = p + m + k + 1;
  const units = new Int32Array(limit);
  const byteEnd = new Int32Array(limit);
  const prev = new Int32Array(limit);
  let prevLength = 0;
  // rows[d]: edit distances between the first d units after the fixed prefix and each prefix of `rest`.
  const rows: Int32Array[] = [Int32Array.from({ length: m + 1 }, (_, j) => j)];
  let computed = 0; // rows[0..computed] hold the previous term's path
  for (let t = from; t < to;) {
    const length = termUnits(bytes, offsets[t], offsets[t + 1], o.unicodeAware, units, byteEnd, limit);
    let fixedOk = length >= p;
    for (let i = 0; fixedOk && i < p; i++) fixedOk = units[i] === fixed[i];
    if (!fixedOk) {
      t++; // only where the range had to stop short of a character cut by the fixed prefix
      continue;
    }
    const termRest = length - p;
    let depth = 0;
    const shared = Math.min(termRest, prevLength, computed);
    while (depth < shared && units[p + depth] === prev[depth]) depth++;
    // Walk down from the shared depth until the path is accepted, dead, or the term ends.
    let accepted = rows[depth][m] <= k ? depth : -1;
    let dead = -1;
    while (accepted < 0 && depth < termRest) {
      const d = ++depth;
      const row = rows[d] ?? (rows[d] = new Int32Array(m + 1));
      const above = rows[d - 1];
      const c = units[p + d - 1];
      row[0] = d;
      let min = d;
      for (let j = 1; j <= m; j++) {
        let v = Math.min(above[j] + 1, row[j - 1] + 1, above[j - 1] + (c === rest[j - 1] ? 0 : 1));
        if (o.transpositions && d > 1 && j > 1 && c === rest[j - 2] && units[p + d - 2] === rest[j - 1]) v = Math.min(v, rows[d - 2][j - 2] + 1);
        row[j] = v;
        if (v < min) min = v;
      }
      if (row[m] <= k) accepted = d;
      else if (min > k) {
        dead = d;
        break;
      }
    }
    for (let i = p; i < length; i++) prev[i - p] = units[i];
    prevLength = termRest;
    computed = depth;
    if (accepted < 0 && dead < 0) {
      t++;
      continue;
    }
    // Every term below this path shares its outcome.
    const pathUnits = p + (accepted >= 0 ? accepted : dead);
    const pathBytes = pathUnits === 0 ? 0 : byteEnd[pathUnits - 1];
    const end = endOfPrefix(bytes, offsets, t, pathBytes, to);
    if (accepted >= 0) {
      let boost = 0;
      while (boost < Math.min(n, pathUnits) && units[boost] === query.units[boost]) boost++;
      sink(t, end, boost);
    }
    t = end;
  }
}
