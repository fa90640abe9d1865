/**
 * Patterns → deterministic automata, as Lucene's RegExp.toAutomaton + Operations.determinize do:
 * a Thompson NFA over code point ranges, then the subset construction over the alphabet cut into
 * classes (the intervals between every range boundary of the NFA). Matching then reads each
 * character once: linear time, no backtracking, whatever the pattern.
 *
 * The cost of a hostile pattern moves to determinization, so it is bounded the way Lucene bounds
 * it: more than `maxDeterminizedStates` DFA states (ES default 10,000) throws Lucene's
 * TooComplexToDeterminizeException. Two further bounds keep that check itself cheap: the NFA may
 * hold at most MAX_NFA_STATES states (a `(a{1000}){1000}` would otherwise build a million), and the
 * subset construction at most WORK_PER_STATE units of work per allowed DFA state (a 1,000-character
 * pattern's NFA sets can be large). Both answer the same exception.
 *
 * Complement `~` and intersection `&` are built on DFAs (totalize and flip; product) and embedded
 * back into the NFA, so they nest anywhere.
 */
import { IllegalArgumentError, TooComplexToDeterminizeError } from '../../errors/index.js';
import { MAX_CODE_POINT, type PatternNode } from './pattern-node.js';
import { lastAtMost } from '../sorted-search.js';

/** ES's default `max_determinized_states` (Operations.DEFAULT_DETERMINIZE_WORK_LIMIT's ancestor). */
export const DEFAULT_MAX_DETERMINIZED_STATES = 10_000;
const MAX_NFA_STATES = 100_000;
const WORK_PER_STATE = 500;

/**
 * A DFA as plain data (it crosses to workers as is). State 0 is the start. Class `c` is the code
 * points [points[c], points[c + 1] - 1]; `trans[state * classCount + c]` is the next state, -1
 * when no string can be accepted any more (dead states are trimmed). `accept[state]` is 0, 1
 * (accepting) or 2 (accepting, and so is every continuation: a match-all suffix like `foo.*`).
 */
export interface Dfa {
  readonly points: Int32Array;
  readonly classCount: number;
  readonly stateCount: number;
  readonly trans: Int32Array;
  readonly accept: Uint8Array;
  /** class of each ASCII code point, to skip the binary search on the common case */
  readonly asciiClass: Int32Array;
}

export const ACCEPTS = 1;
export const ACCEPTS_ALL = 2;

/** A Thompson NFA under construction: epsilon edges and (from, to, target) range edges per state. */
class Nfa {
  readonly eps: number[][] = [];
  readonly edges: number[][] = [];
  transitions = 0;
  constructor(private readonly maxDeterminizedStates: number) {}
  newState(): number {
    if (this.eps.length >= MAX_NFA_STATES) throw this.tooComplex();
    this.eps.push([]);
    this.edges.push([]);
    return this.eps.length - 1;
  }
  addRange(s: number, from: number, to: number, target: number): void {
    this.edges[s].push(from, to, target);
    this.transitions++;
  }
  addEps(s: number, target: number): void {
    this.eps[s].push(target);
    this.transitions++;
  }
  tooComplex(): TooComplexToDeterminizeError {
    return new TooComplexToDeterminizeError(this.eps.length, this.transitions, this.maxDeterminizedStates);
  }
}

/** Builds `node` into `nfa`; returns the fragment's [entry, exit]. */
function build(nfa: Nfa, node: PatternNode, maxStates: number): [number, number] {
  switch (node.kind) {
    case 'empty_string': {
      const a = nfa.newState();
      return [a, a];
    }
    case 'empty':
      return [nfa.newState(), nfa.newState()];
    case 'any_string': {
      const a = nfa.newState();
      nfa.addRange(a, 0, MAX_CODE_POINT, a);
      return [a, a];
    }
    case 'chars': {
      const a = nfa.newState();
      const b = nfa.newState();
      for (let i = 0; i < node.ranges.length; i += 2) nfa.addRange(a, node.ranges[i], node.ranges[i + 1], b);
      return [a, b];
    }
    case 'concat': {
      const [entry, first] = build(nfa, node.parts[0], maxStates);
      let cur = first;
      for (let i = 1; i < node.parts.length; i++) {
        const [s, e] = build(nfa, node.parts[i], maxStates);
        nfa.addEps(cur, s);
        cur = e;
      }
      return [entry, cur];
    }
    case 'union': {
      const a = nfa.newState();
      const b = nfa.newState();
      for (const part of node.parts) {
        const [s, e] = build(nfa, part, maxStates);
        nfa.addEps(a, s);
        nfa.addEps(e, b);
      }
      return [a, b];
    }
    case 'repeat':
      return buildRepeat(nfa, node.inner, node.min, node.max, maxStates);
    case 'group':
      return build(nfa, node.inner, maxStates);
    case 'assert':
    case 'look':
      // Context is not part of a regular language: only the matcher VM runs these.
      throw new IllegalArgumentError('anchors, boundaries and lookaround are not supported inside lookaround');
    case 'complement':
      return embed(nfa, complement(toDfa(node.inner, maxStates), maxStates));
    case 'intersection':
      return embed(nfa, intersection(toDfa(node.left, maxStates), toDfa(node.right, maxStates), maxStates));
    default: {
      const never: never = node;
      throw new Error(`unknown pattern node ${String(never)}`);
    }
  }
}

/** Lucene Operations.repeat(a, min, max): min copies, then (max - min) optional ones or a star. */
function buildRepeat(nfa: Nfa, inner: PatternNode, min: number, max: number, maxStates: number): [number, number] {
  const entry = nfa.newState();
  if (max !== -1 && min > max) return [entry, nfa.newState()]; // the empty language
  let cur = entry;
  for (let i = 0; i < min; i++) {
    const [s, e] = build(nfa, inner, maxStates);
    nfa.addEps(cur, s);
    cur = e;
  }
  if (max === -1) {
    const loop = nfa.newState();
    const [s, e] = build(nfa, inner, maxStates);
    nfa.addEps(cur, loop);
    nfa.addEps(loop, s);
    nfa.addEps(e, loop);
    return [entry, loop];
  }
  const exit = nfa.newState();
  nfa.addEps(cur, exit);
  for (let i = min; i < max; i++) {
    const [s, e] = build(nfa, inner, maxStates);
    nfa.addEps(cur, s);
    nfa.addEps(e, exit);
    cur = e;
  }
  return [entry, exit];
}

/** Copies a DFA into the NFA as a fragment (accepting states lead to the exit). */
function embed(nfa: Nfa, dfa: Dfa): [number, number] {
  const base = nfa.eps.length;
  for (let s = 0; s < dfa.stateCount; s++) nfa.newState();
  const exit = nfa.newState();
  for (let s = 0; s < dfa.stateCount; s++) {
    if (dfa.accept[s] !== 0) nfa.addEps(base + s, exit);
    const row = s * dfa.classCount;
    for (let c = 0; c < dfa.classCount; ) {
      const t = dfa.trans[row + c];
      let end = c + 1;
      while (end < dfa.classCount && dfa.trans[row + end] === t) end++;
      if (t >= 0) nfa.addRange(base + s, dfa.points[c], end < dfa.classCount ? dfa.points[end] - 1 : MAX_CODE_POINT, base + t);
      c = end;
    }
  }
  return [base, exit];
}

/** The class holding code point cp: the last class start ≤ cp (points[0] is 0). */
const findClass = (points: Int32Array, cp: number): number => lastAtMost(points, cp);

function asciiClasses(points: Int32Array): Int32Array {
  const out = new Int32Array(128);
  for (let c = 0; c < 128; c++) out[c] = findClass(points, c);
  return out;
}

/** The class of code point `cp` in `dfa`. */
export function classOf(dfa: Dfa, cp: number): number {
  return cp < 128 ? dfa.asciiClass[cp] : findClass(dfa.points, cp);
}

/**
 * The subset construction (Lucene Operations.determinize), then dead states trimmed and match-all
 * states marked. Throws TooComplexToDeterminizeError past `maxStates` DFA states.
 *
 * A DFA state is the set of *important* NFA states reached (those with range edges, and the exit):
 * the epsilon closure of every NFA state is computed once, restricted to those, so sets stay small
 * and two DFA states are equal exactly when their important sets are.
 */
function determinize(nfa: Nfa, start: number, exit: number, maxStates: number): Dfa {
  const n = nfa.eps.length;
  const cuts = new Set<number>([0]);
  for (const edges of nfa.edges) {
    for (let i = 0; i < edges.length; i += 3) {
      cuts.add(edges[i]);
      if (edges[i + 1] < MAX_CODE_POINT) cuts.add(edges[i + 1] + 1);
    }
  }
  const points = Int32Array.from(cuts).sort();
  const classCount = points.length;
  // Each edge as a span of classes.
  const spans: Int32Array[] = nfa.edges.map((edges) => {
    const out = new Int32Array(edges.length);
    for (let i = 0; i < edges.length; i += 3) {
      out[i] = findClass(points, edges[i]);
      out[i + 1] = findClass(points, edges[i + 1]);
      out[i + 2] = edges[i + 2];
    }
    return out;
  });

  let work = 0;
  const workLimit = Math.max(1, maxStates) * WORK_PER_STATE;
  // Separate stamps: closureOf runs inside union's loop.
  const mark = new Int32Array(n);
  let stamp = 0;
  const seen = new Int32Array(n);
  let seenStamp = 0;
  const important = (s: number) => s === exit || nfa.edges[s].length > 0;
  // The important states of each NFA state's epsilon closure, computed on first use.
  const closures: Array<Int32Array | undefined> = new Array(n);
  const stack: number[] = [];
  const closureOf = (s0: number): Int32Array => {
    const known = closures[s0];
    if (known !== undefined) return known;
    stamp++;
    const out: number[] = [];
    mark[s0] = stamp;
    stack.push(s0);
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (important(s)) out.push(s);
      for (const t of nfa.eps[s]) {
        if (mark[t] !== stamp) {
          mark[t] = stamp;
          stack.push(t);
        }
      }
      if (++work > workLimit) throw nfa.tooComplex();
    }
    const c = Int32Array.from(out).sort();
    closures[s0] = c;
    return c;
  };
  const union = (targets: readonly number[]): Int32Array => {
    seenStamp++;
    const out: number[] = [];
    for (const t of targets) {
      const c = closureOf(t);
      for (let i = 0; i < c.length; i++) {
        if (seen[c[i]] !== seenStamp) {
          seen[c[i]] = seenStamp;
          out.push(c[i]);
        }
      }
      work += c.length;
    }
    return Int32Array.from(out).sort();
  };

  const sets: Int32Array[] = [];
  // DFA state ids by a hash of their set; equal hashes are told apart by comparing the sets.
  const ids = new Map<number, number[]>();
  let trans = new Int32Array(Math.max(16, classCount * 16)).fill(-1);
  const accept: number[] = [];
  const intern = (set: Int32Array): number => {
    let h = set.length;
    for (let i = 0; i < set.length; i++) h = Math.imul(h ^ set[i], 0x9e3779b1) ^ (h >>> 15);
    const bucket = ids.get(h);
    if (bucket !== undefined) {
      for (const id of bucket) if (sameSet(sets[id], set)) return id;
    }
    const id = sets.length;
    if (id >= maxStates) throw nfa.tooComplex();
    sets.push(set);
    if (bucket !== undefined) bucket.push(id);
    else ids.set(h, [id]);
    accept.push(set.includes(exit) ? ACCEPTS : 0);
    if ((id + 1) * classCount > trans.length) {
      const grown = new Int32Array(trans.length * 2).fill(-1);
      grown.set(trans);
      trans = grown;
    }
    return id;
  };
  intern(union([start]));
  const buckets: number[][] = Array.from({ length: classCount }, () => []);
  for (let d = 0; d < sets.length; d++) {
    for (const b of buckets) b.length = 0;
    for (const s of sets[d]) {
      const span = spans[s];
      for (let i = 0; i < span.length; i += 3) {
        const to = span[i + 1];
        const target = span[i + 2];
        for (let c = span[i]; c <= to; c++) buckets[c].push(target);
        work += to - span[i] + 1;
      }
    }
    work += classCount;
    let previous: number[] | null = null;
    let previousId = -1;
    for (let c = 0; c < classCount; c++) {
      const b = buckets[c];
      if (b.length === 0) continue;
      // Neighbouring classes often lead to the same set (a `.` spans them all): reuse its id.
      const id = previous !== null && sameItems(previous, b) ? previousId : intern(union(b));
      trans[d * classCount + c] = id;
      previous = b;
      previousId = id;
    }
    if (work > workLimit) throw nfa.tooComplex();
  }
  return finish(points, sets.length, trans.subarray(0, sets.length * classCount), Uint8Array.from(accept));
}

function sameSet(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameItems(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Trims states that cannot reach an accepting state (their transitions become -1, so a run stops
 * the moment no match is possible) and marks the match-all states (ACCEPTS_ALL).
 */
function finish(points: Int32Array, stateCount: number, trans: Int32Array, accept: Uint8Array): Dfa {
  const classCount = points.length;
  // Reverse reachability from the accepting states.
  const reverse: number[][] = Array.from({ length: stateCount }, () => []);
  for (let s = 0; s < stateCount; s++) {
    for (let c = 0; c < classCount; c++) {
      const t = trans[s * classCount + c];
      if (t >= 0) reverse[t].push(s);
    }
  }
  const live = new Uint8Array(stateCount);
  const queue: number[] = [];
  for (let s = 0; s < stateCount; s++) {
    if (accept[s] !== 0) {
      live[s] = 1;
      queue.push(s);
    }
  }
  while (queue.length > 0) {
    const t = queue.pop()!;
    for (const s of reverse[t]) {
      if (live[s] === 0) {
        live[s] = 1;
        queue.push(s);
      }
    }
  }
  const out = new Int32Array(trans.length);
  for (let i = 0; i < trans.length; i++) out[i] = trans[i] >= 0 && live[trans[i]] === 1 ? trans[i] : -1;
  // Match-all: accepting with every transition to a match-all state (greatest fixpoint).
  const acc = Uint8Array.from(accept);
  for (let s = 0; s < stateCount; s++) if (acc[s] !== 0) acc[s] = ACCEPTS_ALL;
  for (let changed = true; changed; ) {
    changed = false;
    for (let s = 0; s < stateCount; s++) {
      if (acc[s] !== ACCEPTS_ALL) continue;
      for (let c = 0; c < classCount; c++) {
        const t = out[s * classCount + c];
        if (t < 0 || acc[t] !== ACCEPTS_ALL) {
          acc[s] = ACCEPTS;
          changed = true;
          break;
        }
      }
    }
  }
  return { points, classCount, stateCount, trans: out, accept: acc, asciiClass: asciiClasses(points) };
}

/** Every string the DFA rejects (Lucene Operations.complement: totalize, then flip). */
function complement(dfa: Dfa, maxStates: number): Dfa {
  const { classCount } = dfa;
  const stateCount = dfa.stateCount + 1;
  const sink = dfa.stateCount;
  if (stateCount > maxStates) throw new TooComplexToDeterminizeError(dfa.stateCount, dfa.trans.length, maxStates);
  const trans = new Int32Array(stateCount * classCount);
  for (let i = 0; i < dfa.trans.length; i++) trans[i] = dfa.trans[i] >= 0 ? dfa.trans[i] : sink;
  trans.fill(sink, sink * classCount);
  const accept = new Uint8Array(stateCount);
  for (let s = 0; s < dfa.stateCount; s++) accept[s] = dfa.accept[s] === 0 ? ACCEPTS : 0;
  accept[sink] = ACCEPTS;
  return finish(dfa.points, stateCount, trans, accept);
}

/** The strings both DFAs accept (product construction over the merged alphabet). */
function intersection(a: Dfa, b: Dfa, maxStates: number): Dfa {
  const points = Int32Array.from(new Set([...a.points, ...b.points])).sort();
  const classCount = points.length;
  const ca = Int32Array.from(points, (p) => findClass(a.points, p));
  const cb = Int32Array.from(points, (p) => findClass(b.points, p));
  const ids = new Map<number, number>();
  const pairs: number[] = [];
  const trans: number[] = [];
  const accept: number[] = [];
  const intern = (sa: number, sb: number): number => {
    const key = sa * b.stateCount + sb;
    const known = ids.get(key);
    if (known !== undefined) return known;
    const id = accept.length;
    if (id >= maxStates) throw new TooComplexToDeterminizeError(a.stateCount + b.stateCount, a.trans.length + b.trans.length, maxStates);
    ids.set(key, id);
    pairs.push(sa, sb);
    accept.push(a.accept[sa] !== 0 && b.accept[sb] !== 0 ? ACCEPTS : 0);
    return id;
  };
  intern(0, 0);
  for (let d = 0; d < accept.length; d++) {
    const sa = pairs[2 * d];
    const sb = pairs[2 * d + 1];
    for (let c = 0; c < classCount; c++) {
      const ta = a.trans[sa * a.classCount + ca[c]];
      const tb = b.trans[sb * b.classCount + cb[c]];
      trans.push(ta >= 0 && tb >= 0 ? intern(ta, tb) : -1);
    }
  }
  return finish(points, accept.length, Int32Array.from(trans), Uint8Array.from(accept));
}

/**
 * Compiles a parsed pattern to a DFA. Throws TooComplexToDeterminizeError when it would need more
 * than `maxDeterminizedStates` states (or an NFA or determinization effort beyond the bounds above).
 */
export function toDfa(node: PatternNode, maxDeterminizedStates: number = DEFAULT_MAX_DETERMINIZED_STATES): Dfa {
  const nfa = new Nfa(maxDeterminizedStates);
  const [start, exit] = build(nfa, node, maxDeterminizedStates);
  return determinize(nfa, start, exit, maxDeterminizedStates);
}
