/**
 * A Pike VM (Thompson's NFA simulation with thread priorities, as RE2 and Go's regexp run it):
 * java.util.regex's `Matcher.find` semantics — leftmost-first, greedy and lazy quantifiers, capture
 * groups, anchors and word boundaries — without backtracking. All threads advance together one code
 * point at a time and each program instruction holds at most one thread per step, so a search costs
 * O(text × program) whatever the pattern: `(a+)+b` over a long run of `a` is as cheap as `ab`.
 *
 * Priorities reproduce the backtracking engine's choice: threads are kept in the order a
 * backtracker would try them, a thread reaching MATCH cuts every lower-priority one, and the
 * search goes on only while a higher-priority thread might still match.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { DEFAULT_MAX_DETERMINIZED_STATES, classOf, toDfa, type Dfa } from './automaton.js';
import { reversePattern } from './java-regex-syntax.js';
import { codePointBefore } from './run-automaton.js';
import type { AssertKind, PatternNode } from './pattern-node.js';

const CHAR = 0;
const SPLIT = 1;
const JMP = 2;
const SAVE = 3;
const ASSERT = 4;
const MATCH = 5;
const LOOK = 6;

/** A lookaround: its pattern as a DFA, read forward (ahead) or backward (behind, the pattern reversed). */
interface Look {
  readonly dfa: Dfa;
  readonly behind: boolean;
  readonly negate: boolean;
}

/** Bounded repeats are unrolled; a program past this many instructions is refused. */
export const MAX_PROGRAM_SIZE = 50_000;

interface Program {
  readonly op: Int32Array;
  /** CHAR: index into `ranges`; SPLIT/JMP: first target; SAVE: slot; ASSERT: assertion index. */
  readonly a: Int32Array;
  /** SPLIT: second (lower-priority) target. */
  readonly b: Int32Array;
  readonly ranges: ReadonlyArray<readonly number[]>;
  readonly asserts: readonly AssertKind[];
  readonly looks: readonly Look[];
  /** Capture slots: 2 per group 1..groupCount. */
  readonly slots: number;
}

class ProgramBuilder {
  op: number[] = [];
  a: number[] = [];
  b: number[] = [];
  ranges: Array<readonly number[]> = [];
  asserts: AssertKind[] = [];
  looks: Look[] = [];

  emit(op: number, a = 0, b = 0): number {
    if (this.op.length >= MAX_PROGRAM_SIZE) {
      throw new IllegalArgumentError(`the pattern is too large to run: it compiles to more than [${MAX_PROGRAM_SIZE}] instructions`);
    }
    this.op.push(op);
    this.a.push(a);
    this.b.push(b);
    return this.op.length - 1;
  }

  compile(node: PatternNode): void {
    switch (node.kind) {
      case 'empty_string':
        return;
      case 'empty': {
        this.ranges.push([]);
        this.emit(CHAR, this.ranges.length - 1);
        return;
      }
      case 'any_string':
        this.compile({ kind: 'repeat', inner: { kind: 'chars', ranges: [0, 0x10ffff] }, min: 0, max: -1 });
        return;
      case 'chars':
        this.ranges.push(node.ranges);
        this.emit(CHAR, this.ranges.length - 1);
        return;
      case 'concat':
        for (const p of node.parts) this.compile(p);
        return;
      case 'union': {
        // SPLIT chains in order: earlier alternatives have priority, as a backtracker tries them.
        const jumps: number[] = [];
        for (let i = 0; i < node.parts.length; i++) {
          if (i === node.parts.length - 1) {
            this.compile(node.parts[i]);
            break;
          }
          const split = this.emit(SPLIT);
          this.a[split] = split + 1;
          this.compile(node.parts[i]);
          jumps.push(this.emit(JMP));
          this.b[split] = this.op.length;
        }
        for (const j of jumps) this.a[j] = this.op.length;
        return;
      }
      case 'repeat':
        this.repeat(node.inner, node.min, node.max, node.lazy === true);
        return;
      case 'group':
        this.emit(SAVE, 2 * (node.index - 1));
        this.compile(node.inner);
        this.emit(SAVE, 2 * (node.index - 1) + 1);
        return;
      case 'assert':
        this.asserts.push(node.what);
        this.emit(ASSERT, this.asserts.length - 1);
        return;
      case 'look': {
        const inner = node.behind ? reversePattern(node.inner) : node.inner;
        this.looks.push({ dfa: toDfa(inner, DEFAULT_MAX_DETERMINIZED_STATES), behind: node.behind, negate: node.negate });
        this.emit(LOOK, this.looks.length - 1);
        return;
      }
      case 'complement':
      case 'intersection':
        throw new IllegalArgumentError('complement and intersection are not java.util.regex syntax');
    }
  }

  /** A SPLIT whose preferred branch is the body (greedy) or the way out (lazy). */
  private split(lazy: boolean, body: number, out: number, at: number): void {
    this.a[at] = lazy ? out : body;
    this.b[at] = lazy ? body : out;
  }

  private repeat(inner: PatternNode, min: number, max: number, lazy: boolean): void {
    for (let i = 0; i < min; i++) this.compile(inner);
    if (max === -1) {
      const loop = this.emit(SPLIT);
      this.compile(inner);
      this.emit(JMP, loop);
      this.split(lazy, loop + 1, this.op.length, loop);
      return;
    }
    // x{0,k} as nested optionals: (x(x(x)?)?)?, each exit straight to the end.
    const splits: number[] = [];
    for (let i = min; i < max; i++) {
      splits.push(this.emit(SPLIT));
      this.compile(inner);
    }
    const end = this.op.length;
    for (const s of splits) this.split(lazy, s + 1, end, s);
  }
}

export function compileProgram(node: PatternNode, groupCount: number): Program {
  const builder = new ProgramBuilder();
  builder.compile(node);
  builder.emit(MATCH);
  return {
    op: Int32Array.from(builder.op), a: Int32Array.from(builder.a), b: Int32Array.from(builder.b),
    ranges: builder.ranges, asserts: builder.asserts, looks: builder.looks, slots: 2 * groupCount,
  };
}

function inRanges(ranges: readonly number[], cp: number): boolean {
  if (ranges.length <= 8) {
    for (let i = 0; i < ranges.length; i += 2) if (cp >= ranges[i] && cp <= ranges[i + 1]) return true;
    return false;
  }
  let lo = 0;
  let hi = (ranges.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < ranges[2 * mid]) hi = mid - 1;
    else if (cp > ranges[2 * mid + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}

const WORD_CHAR = /[\p{L}\p{Nd}_]/u;
/** java.util.regex's `\b` word characters: Character.isLetterOrDigit or `_`. */
function isWordAt(text: string, i: number, before: boolean): boolean {
  if (before ? i <= 0 : i >= text.length) return false;
  return WORD_CHAR.test(String.fromCodePoint(before ? codePointBefore(text, i) : text.codePointAt(i)!));
}

const isTerminator = (c: number, unixLines: boolean): boolean =>
  unixLines ? c === 0x0a : c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;

function holds(kind: AssertKind, text: string, i: number, unixLines: boolean): boolean {
  const n = text.length;
  switch (kind) {
    case 'input_start':
      return i === 0;
    case 'input_end':
      return i === n;
    case 'input_end_before_terminator':
      // Java's `$` and `\Z`: the end, or before a final line terminator (\r\n counts as one).
      if (i === n) return true;
      if (i === n - 1) return isTerminator(text.charCodeAt(i), unixLines) && !(text.charCodeAt(i) === 0x0a && i > 0 && text.charCodeAt(i - 1) === 0x0d);
      return i === n - 2 && !unixLines && text.charCodeAt(i) === 0x0d && text.charCodeAt(i + 1) === 0x0a;
    case 'line_start':
      // Java's multiline `^`: after a terminator but not at the very end, never between \r and \n.
      if (i === 0) return true;
      if (i === n || !isTerminator(text.charCodeAt(i - 1), unixLines)) return false;
      return !(text.charCodeAt(i - 1) === 0x0d && text.charCodeAt(i) === 0x0a);
    case 'line_end':
      if (i === n) return true;
      if (!isTerminator(text.charCodeAt(i), unixLines)) return false;
      return !(text.charCodeAt(i) === 0x0a && i > 0 && text.charCodeAt(i - 1) === 0x0d);
    case 'word_boundary':
      return isWordAt(text, i, true) !== isWordAt(text, i, false);
    case 'not_word_boundary':
      return isWordAt(text, i, true) === isWordAt(text, i, false);
  }
}

/**
 * Whether a lookaround holds at `i`: its DFA accepts some prefix of the text after `i` (ahead) or
 * some suffix of the text before it (behind). Reads until the DFA accepts or dies, each read
 * charged to `steps`.
 */
function lookHolds(look: Look, text: string, i: number, steps: { left: number }): boolean {
  const { dfa } = look;
  let state = 0;
  let found = dfa.accept[0] !== 0;
  let j = i;
  while (!found) {
    if (look.behind ? j <= 0 : j >= text.length) break;
    let cp: number;
    if (look.behind) {
      cp = codePointBefore(text, j);
      j -= cp > 0xffff ? 2 : 1;
    } else {
      cp = text.codePointAt(j)!;
      j += cp > 0xffff ? 2 : 1;
    }
    steps.left--;
    state = dfa.trans[state * dfa.classCount + classOf(dfa, cp)];
    if (state < 0) break;
    found = dfa.accept[state] !== 0;
  }
  return found !== look.negate;
}

/** A match: [start, end) and, per group g ≥ 1, groups[2(g-1)], groups[2(g-1)+1] (-1 when it did not take part). */
export interface VmMatch {
  readonly start: number;
  readonly end: number;
  readonly groups: Int32Array;
}

class ThreadList {
  readonly pcs: Int32Array;
  readonly starts: Int32Array;
  readonly caps: Int32Array[];
  readonly mark: Int32Array;
  size = 0;
  stamp = 0;
  constructor(n: number) {
    this.pcs = new Int32Array(n);
    this.starts = new Int32Array(n);
    this.caps = new Array<Int32Array>(n);
    this.mark = new Int32Array(n);
  }
  clear(): void {
    this.size = 0;
    this.stamp++;
  }
}

/** Runs a compiled program; one instance per pattern, not re-entrant (each search reuses its buffers). */
export class MatcherVm {
  private readonly program: Program;
  private clist: ThreadList;
  private nlist: ThreadList;
  private readonly stackPc: Int32Array;
  private readonly stackCaps: Int32Array[];
  private readonly noCaps: Int32Array;

  constructor(node: PatternNode, groupCount: number, private readonly unixLines: boolean) {
    this.program = compileProgram(node, groupCount);
    const n = this.program.op.length;
    this.clist = new ThreadList(n);
    this.nlist = new ThreadList(n);
    this.stackPc = new Int32Array(2 * n + 2);
    this.stackCaps = new Array<Int32Array>(2 * n + 2);
    this.noCaps = new Int32Array(this.program.slots).fill(-1);
  }

  /** Follows the empty moves from `pc` at text position `i`, adding the threads that read or match, in priority order. */
  private addThread(list: ThreadList, pc0: number, start: number, caps0: Int32Array, text: string, i: number, steps: { left: number }): void {
    const { op, a, b, asserts, looks } = this.program;
    const stackPc = this.stackPc;
    const stackCaps = this.stackCaps;
    let sp = 0;
    stackPc[sp] = pc0;
    stackCaps[sp++] = caps0;
    while (sp > 0) {
      const pc = stackPc[--sp];
      const caps = stackCaps[sp];
      if (list.mark[pc] === list.stamp) continue;
      list.mark[pc] = list.stamp;
      switch (op[pc]) {
        case JMP:
          stackPc[sp] = a[pc];
          stackCaps[sp++] = caps;
          break;
        case SPLIT:
          // Lower priority first on the stack, so the preferred branch is explored first.
          stackPc[sp] = b[pc];
          stackCaps[sp++] = caps;
          stackPc[sp] = a[pc];
          stackCaps[sp++] = caps;
          break;
        case SAVE: {
          const copy = caps.slice();
          copy[a[pc]] = i;
          stackPc[sp] = pc + 1;
          stackCaps[sp++] = copy;
          break;
        }
        case ASSERT:
          if (holds(asserts[a[pc]], text, i, this.unixLines)) {
            stackPc[sp] = pc + 1;
            stackCaps[sp++] = caps;
          }
          break;
        case LOOK:
          if (lookHolds(looks[a[pc]], text, i, steps)) {
            stackPc[sp] = pc + 1;
            stackCaps[sp++] = caps;
          }
          break;
        default: {
          const k = list.size++;
          list.pcs[k] = pc;
          list.starts[k] = start;
          list.caps[k] = caps;
        }
      }
    }
  }

  /**
   * Java's Matcher.find from UTF-16 index `from`: the leftmost match, the one a backtracking engine
   * prefers among those starting there. `steps.left` is decremented by the positions read; the
   * search stops (returning undefined) when it runs out, so callers bound the total work.
   */
  find(text: string, from: number, steps: { left: number }): VmMatch | null | undefined {
    const { op, a, ranges } = this.program;
    const n = text.length;
    let clist = this.clist;
    let nlist = this.nlist;
    clist.clear();
    let matched: VmMatch | null = null;
    let i = from;
    for (;;) {
      if (matched === null) this.addThread(clist, 0, i, this.noCaps, text, i, steps);
      if (--steps.left < 0) return undefined;
      const cp = i < n ? text.codePointAt(i)! : -1;
      const next = cp > 0xffff ? i + 2 : i + 1;
      if (clist.size === 0) {
        // No thread alive: nothing matched so far, try from the next position (or stop).
        if (matched !== null || i >= n) break;
        clist.clear();
        i = next;
        continue;
      }
      nlist.clear();
      for (let t = 0; t < clist.size; t++) {
        const pc = clist.pcs[t];
        if (op[pc] === MATCH) {
          matched = { start: clist.starts[t], end: i, groups: clist.caps[t] };
          break; // every lower-priority thread is cut
        }
        if (cp >= 0 && inRanges(ranges[a[pc]], cp)) this.addThread(nlist, pc + 1, clist.starts[t], clist.caps[t], text, next, steps);
      }
      const swap = clist;
      clist = nlist;
      nlist = swap;
      if (i >= n) break;
      i = next;
    }
    this.clist = clist;
    this.nlist = nlist;
    return matched;
  }
}
