/**
 * The `simple_query_string` syntax: Lucene's SimpleQueryParser, character by character. It never
 * fails: an unclosed quote or parenthesis is ignored, an operator with
 * nothing to apply to is dropped. `+` AND, `|` OR, `-` NOT, `"…"` phrase (`"…"~N` slop), a
 * trailing `*` prefix, `~N` fuzziness after a term, `( )` precedence, `\` escapes, whitespace
 * separates terms; each can be turned off by `flags` (ES SimpleQueryStringFlag).
 *
 * Leaves are built by the caller while parsing (SimpleQueryParser's newDefaultQuery, newFuzzyQuery,
 * newPhraseQuery, newPrefixQuery), because the tree's shape depends on them: a leaf that analyses
 * to nothing (null) is skipped, and a pending operator then applies to the next leaf instead.
 * The boolean tree is built left to right: a change of operator makes the tree so far one clause
 * of a new boolean query (so `a b +c` is `+(a b) +c`, not `a (b +c)`).
 */
import { IllegalArgumentError, TooManyClausesError } from '../../errors/index.js';
import { MAX_GROUP_DEPTH } from './syntax.js';

export const SQS_FLAGS = {
  AND: 1 << 0,
  NOT: 1 << 1,
  OR: 1 << 2,
  PREFIX: 1 << 3,
  PHRASE: 1 << 4,
  PRECEDENCE: 1 << 5,
  ESCAPE: 1 << 6,
  WHITESPACE: 1 << 7,
  FUZZY: 1 << 8,
  /** NEAR and SLOP are the same flag: slop after a phrase. */
  NEAR: 1 << 9,
} as const;

/** Every operator on (ES SimpleQueryStringFlag.ALL is -1). */
export const SQS_ALL_FLAGS = -1;

export type SqsOccur = 'must' | 'should' | 'must_not';

export type SqsNode<T> =
  | { readonly kind: 'leaf'; readonly query: T }
  | { readonly kind: 'bool'; readonly clauses: ReadonlyArray<{ readonly occur: SqsOccur; readonly node: SqsNode<T> }> }
  /** `-x`: Lucene's BooleanQuery (x MUST_NOT, MatchAllDocsQuery SHOULD). */
  | { readonly kind: 'not'; readonly node: SqsNode<T> }
  | { readonly kind: 'match_all' };

/** The leaf factories; null means "nothing to search for" (the text analysed to no tokens). */
export interface SqsLeafBuilder<T> {
  defaultQuery(text: string): T | null;
  fuzzyQuery(text: string, edits: number): T | null;
  phraseQuery(text: string, slop: number): T | null;
  prefixQuery(text: string): T | null;
}

/** LevenshteinAutomata.MAXIMUM_SUPPORTED_DISTANCE. */
const MAX_EDITS = 2;

interface State<T> {
  index: number;
  readonly end: number;
  currentOperation: SqsOccur | null;
  previousOperation: SqsOccur | null;
  not: number;
  top: SqsNode<T> | null;
}

/**
 * Parses `text`; null is Lucene's MatchNoDocsQuery ("empty string passed to query parser"). The
 * text `*` alone (after trimming as Java's String.trim does) matches everything.
 * `maxLeaves` bounds the terms, phrases and prefixes one query may hold (the clause limit, checked
 * as they are built so a huge text fails early); the tree may nest at most MAX_GROUP_DEPTH deep, as
 * `query_string`'s groups, since everything that walks it later recurses.
 */
export function parseSimpleQueryString<T>(
  text: string, flags: number, defaultOperator: 'or' | 'and', build: SqsLeafBuilder<T>, maxLeaves = Infinity,
): SqsNode<T> | null {
  if (javaTrim(text) === '*') return { kind: 'match_all' };
  const root = new SimpleParser(text, flags, defaultOperator === 'and' ? 'must' : 'should', build, maxLeaves).parse();
  if (root !== null) checkDepth(root);
  return root;
}

/** Fails a tree deeper than MAX_GROUP_DEPTH (iteratively: the tree may be far deeper than the stack allows). */
function checkDepth<T>(root: SqsNode<T>): void {
  const pending: Array<[SqsNode<T>, number]> = [[root, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (depth > MAX_GROUP_DEPTH) throw new IllegalArgumentError(`Query nesting depth (${depth}) exceeds the maximum allowed (${MAX_GROUP_DEPTH})`);
    if (node.kind === 'not') pending.push([node.node, depth + 1]);
    else if (node.kind === 'bool') for (const c of node.clauses) pending.push([c.node, depth + 1]);
  }
}

function javaTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 0x20) a++;
  while (b > a && s.charCodeAt(b - 1) <= 0x20) b--;
  return s.slice(a, b);
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

class SimpleParser<T> {
  constructor(
    private readonly data: string,
    private readonly flags: number,
    private readonly defaultOperator: SqsOccur,
    private readonly build: SqsLeafBuilder<T>,
    private readonly maxLeaves: number,
  ) {}

  private leaves = 0;

  private on(flag: number): boolean {
    return (this.flags & flag) !== 0;
  }

  /**
   * SimpleQueryParser.parseSubQuery with its recursion into subqueries kept on an explicit stack,
   * so that deeply nested parentheses cannot overflow the call stack.
   */
  parse(): SqsNode<T> | null {
    const d = this.data;
    const stack: State<T>[] = [];
    let state: State<T> = { index: 0, end: d.length, currentOperation: null, previousOperation: null, not: 0, top: null };
    for (;;) {
      if (state.index >= state.end) {
        const parent = stack.pop();
        if (parent === undefined) return state.top;
        // The subquery ended at its closing parenthesis: it is one branch of the enclosing query.
        this.buildQueryTree(parent, state.top);
        parent.index = state.end + 1;
        parent.not = 0;
        state = parent;
        continue;
      }
      const c = d[state.index];
      if (c === '(' && this.on(SQS_FLAGS.PRECEDENCE)) {
        const start = state.index + 1;
        const close = this.closingParenthesis(start);
        if (close < 0 || close >= state.end) {
          state.index = start; // never closed: the opening parenthesis is ignored
        } else if (close === start) {
          state.currentOperation = null; // `()`: nothing for a pending operator to apply to
          state.index = start + 1;
        } else {
          stack.push(state);
          state = { index: start, end: close, currentOperation: null, previousOperation: null, not: 0, top: null };
          continue;
        }
      } else if (c === ')' && this.on(SQS_FLAGS.PRECEDENCE)) {
        state.index++; // an extraneous closing parenthesis is ignored
      } else if (c === '"' && this.on(SQS_FLAGS.PHRASE)) {
        this.consumePhrase(state);
      } else if (c === '+' && this.on(SQS_FLAGS.AND)) {
        // Ignored when an operator is already pending or nothing precedes it.
        if (state.currentOperation === null && state.top !== null) state.currentOperation = 'must';
        state.index++;
      } else if (c === '|' && this.on(SQS_FLAGS.OR)) {
        if (state.currentOperation === null && state.top !== null) state.currentOperation = 'should';
        state.index++;
      } else if (c === '-' && this.on(SQS_FLAGS.NOT)) {
        // Two NOTs in a row cancel out; the count survives only up to the next character.
        state.not++;
        state.index++;
        continue;
      } else if (isSpace(c) && this.on(SQS_FLAGS.WHITESPACE)) {
        state.index++;
      } else {
        this.consumeToken(state);
      }
      state.not = 0;
    }
  }

  private closeOf: Int32Array | null = null;

  /**
   * Where SimpleQueryParser.consumeSubQuery's scan from `start` (just after a `(`) stops: the first
   * unescaped `)` that brings the count of unescaped `(` minus `)` below its level at `start`; -1
   * if none. Computed for every start in one pass (Lucene rescans from each `(`, which is
   * quadratic in the nesting).
   */
  private closingParenthesis(start: number): number {
    if (this.closeOf === null) {
      const d = this.data;
      const n = d.length;
      const escapes = this.on(SQS_FLAGS.ESCAPE);
      // depth[i]: unescaped `(` minus `)` before i. An escape at i covers i + 1; a scan always
      // starts just after a `(`, so the escapes seen from the start of the text are the scan's.
      const depth = new Int32Array(n + 1);
      let escaped = false;
      for (let i = 0; i < n; i++) {
        const c = d[i];
        let step = 0;
        if (escaped) escaped = false;
        else if (c === '\\' && escapes) escaped = true;
        else if (c === '(') step = 1;
        else if (c === ')') step = -1;
        depth[i + 1] = depth[i] + step;
      }
      // Right to left: the nearest later prefix position of each depth.
      const closeOf = new Int32Array(n + 1).fill(-1);
      const nearest = new Map<number, number>();
      for (let i = n; i >= 0; i--) {
        const j = nearest.get(depth[i] - 1);
        if (j !== undefined) closeOf[i] = j - 1; // the `)` just before prefix position j
        nearest.set(depth[i], i);
      }
      this.closeOf = closeOf;
    }
    return this.closeOf[start];
  }

  private consumePhrase(state: State<T>): void {
    const d = this.data;
    const start = ++state.index;
    let phrase = '';
    let escaped = false;
    let hasSlop = false;
    while (state.index < state.end) {
      if (!escaped) {
        const c = d[state.index];
        if (c === '\\' && this.on(SQS_FLAGS.ESCAPE)) {
          escaped = true;
          state.index++;
          continue;
        } else if (c === '"') {
          if (state.end > state.index + 1 && d[state.index + 1] === '~' && this.on(SQS_FLAGS.NEAR)) {
            state.index++;
            if (state.end > state.index + 1) hasSlop = true;
          }
          break;
        }
      }
      escaped = false;
      phrase += d[state.index++];
    }
    if (state.index === state.end) {
      // Never closed: the opening quote is ignored.
      state.index = start;
    } else if (state.index === start) {
      state.currentOperation = null;
      state.index++;
    } else {
      const slop = hasSlop ? this.parseFuzziness(state) : 0;
      this.buildQueryTree(state, this.leaf(this.build.phraseQuery(phrase, slop)));
      // Steps over the closing quote, the `~`, or (Lucene's quirk) the character ending the slop.
      state.index++;
    }
  }

  private consumeToken(state: State<T>): void {
    const d = this.data;
    let token = '';
    let escaped = false;
    let prefix = false;
    let fuzzy = false;
    while (state.index < state.end) {
      if (!escaped) {
        const c = d[state.index];
        if (c === '\\' && this.on(SQS_FLAGS.ESCAPE)) {
          escaped = true;
          prefix = false;
          state.index++;
          continue;
        } else if (this.tokenFinished(c)) {
          break;
        } else if (token.length > 0 && c === '~' && this.on(SQS_FLAGS.FUZZY)) {
          fuzzy = true;
          break;
        }
        // A `*` is a prefix operator only after at least one character and only at the end.
        prefix = token.length > 0 && c === '*' && this.on(SQS_FLAGS.PREFIX);
      }
      escaped = false;
      token += d[state.index++];
    }
    if (token.length === 0) return;
    let branch: T | null;
    if (fuzzy) {
      const edits = Math.min(this.parseFuzziness(state), MAX_EDITS);
      branch = edits === 0 ? this.build.defaultQuery(token) : this.build.fuzzyQuery(token, edits);
    } else if (prefix) {
      branch = this.build.prefixQuery(token.slice(0, -1));
    } else {
      branch = this.build.defaultQuery(token);
    }
    this.buildQueryTree(state, this.leaf(branch));
  }

  private leaf(query: T | null): SqsNode<T> | null {
    if (query === null) return null;
    if (++this.leaves > this.maxLeaves) throw new TooManyClausesError(this.maxLeaves);
    return { kind: 'leaf', query };
  }

  /** Adds a term, phrase or subquery to the tree; a null branch changes nothing (not even the pending operator). */
  private buildQueryTree(state: State<T>, parsed: SqsNode<T> | null): void {
    if (parsed === null) return;
    const branch: SqsNode<T> = state.not % 2 === 1 ? { kind: 'not', node: parsed } : parsed;
    if (state.top === null) {
      state.top = branch;
    } else {
      const op = state.currentOperation ?? this.defaultOperator;
      if (state.previousOperation !== op) {
        // A new operator: everything so far becomes one clause of a new boolean query.
        state.top = { kind: 'bool', clauses: [{ occur: op, node: state.top }, { occur: op, node: branch }] };
      } else {
        // The same operator again: the top is the boolean query this state made; it grows in place
        // (a copy per term made a long query quadratic).
        (state.top as unknown as { clauses: Array<{ occur: SqsOccur; node: SqsNode<T> }> }).clauses.push({ occur: op, node: branch });
      }
      state.previousOperation = op;
    }
    state.currentOperation = null;
  }

  /**
   * The number after `~` up to the end of the token: none → 2, not a number (Java Integer.parseInt)
   * → 0, negative → 0. Leaves the index on the character that ended it.
   */
  private parseFuzziness(state: State<T>): number {
    const d = this.data;
    if (d[state.index] !== '~') return 0;
    let text = '';
    while (state.index < state.end) {
      state.index++;
      if (state.index < state.end) {
        if (this.tokenFinished(d[state.index])) break;
        text += d[state.index];
      }
    }
    if (text === '') return 2;
    if (!/^[+-]?[0-9]+$/.test(text)) return 0;
    const n = Number(text);
    if (n > 2147483647 || n < -2147483648) return 0; // NumberFormatException: swallowed
    return n < 0 ? 0 : n;
  }

  private tokenFinished(c: string): boolean {
    return (c === '"' && this.on(SQS_FLAGS.PHRASE))
      || (c === '|' && this.on(SQS_FLAGS.OR))
      || (c === '+' && this.on(SQS_FLAGS.AND))
      || ((c === '(' || c === ')') && this.on(SQS_FLAGS.PRECEDENCE))
      || (isSpace(c) && this.on(SQS_FLAGS.WHITESPACE));
  }
}
