/**
 * The planned query (Exec) as the highlighter sees it: which leaves can match tokens of a field and
 * how, and how clauses combine. Built from the executable plan, so highlighted terms are exactly the
 * ones searched: analysed query text, fuzzy and phrase-prefix expansions, `query_string` clauses.
 *
 * This file holds the one switch over Exec kinds: a new executable node is taught to the
 * highlighter here and nowhere else. A leaf states its field and a token test (one token per
 * match) or phrase slots (several positions per match); leaves without text terms (numeric ranges,
 * `exists`, `ids`, learned-sparse features) only take part in deciding whether a clause matches.
 * Compiled once per fetch task (the token tests hold compiled patterns), never per hit.
 */
import { assertNever } from '../../dsl/index.js';
import { compareCodePoints } from '../../index/index.js';
import { matches } from '../../common/pattern/index.js';
import type { Exec } from '../plan/exec-nodes.js';

export type HighlightNode =
  | { readonly k: 'bool'; readonly must: readonly HighlightNode[]; readonly should: readonly HighlightNode[];
      readonly filter: readonly HighlightNode[]; readonly mustNot: readonly HighlightNode[]; readonly minimumShouldMatch: number }
  /** dis_max: the union of the clauses that match. */
  | { readonly k: 'any'; readonly clauses: readonly HighlightNode[] }
  | TokenLeaf
  | PhraseLeaf
  /** Matches documents without matching text (or on no field a highlighter reads). */
  | { readonly k: 'doc'; readonly exec: Exec }
  | { readonly k: 'all' }
  | { readonly k: 'none' };

/** A leaf each of whose matches is one token of its field. */
export interface TokenLeaf {
  readonly k: 'token';
  readonly field: string;
  readonly exec: Exec;
  readonly test: (term: string) => boolean;
  /** The exact terms of a term or terms query: their tokens are looked up rather than tested one by one. */
  readonly terms: readonly string[] | null;
  /**
   * The passage scorer's identity of a match (Lucene's Passage match term): null for the matched
   * token's own term (term queries), a per-leaf name for multi-term leaves (prefix, wildcard, term
   * sets and ranges, which Lucene scores as one automaton).
   */
  readonly key: string | null;
}

/** One phrase position: a token equal to one of `terms`, or starting with one with `prefix`. */
export interface PhraseSlot {
  readonly terms: readonly string[];
  readonly prefix: boolean;
}

/** Consecutive (or, with slop, nearby) positions, each holding one of its slot's terms. */
export interface PhraseLeaf {
  readonly k: 'phrase';
  readonly field: string;
  readonly exec: Exec;
  readonly slots: readonly PhraseSlot[];
  /** Relative position of each slot. */
  readonly offsets: readonly number[];
  readonly slop: number;
  /** Lucene's identity of a whole-phrase match: its terms joined by a space. */
  readonly key: string;
}

export function compileHighlightQuery(exec: Exec): HighlightNode {
  let leaves = 0;
  const leafKey = () => `\u0000leaf${leaves++}`;
  const compile = (e: Exec): HighlightNode => {
    switch (e.kind) {
      case 'term':
        return { k: 'token', field: e.field, exec: e, test: (t) => t === e.term, terms: [e.term], key: null };
      case 'terms': {
        const set = new Set(e.terms);
        return { k: 'token', field: e.field, exec: e, test: (t) => set.has(t), terms: e.terms, key: leafKey() };
      }
      case 'prefix': {
        const prefix = e.caseInsensitive ? e.prefix.toLowerCase() : e.prefix;
        const test = e.caseInsensitive ? (t: string) => t.toLowerCase().startsWith(prefix) : (t: string) => t.startsWith(prefix);
        return { k: 'token', field: e.field, exec: e, test, terms: null, key: leafKey() };
      }
      case 'pattern': {
        const dfa = e.automaton;
        return { k: 'token', field: e.field, exec: e, test: (t) => matches(dfa, t), terms: null, key: leafKey() };
      }
      case 'term_range':
        return { k: 'token', field: e.field, exec: e, test: (t) => inRange(t, e), terms: null, key: leafKey() };
      case 'phrase': {
        const fixed = e.prefixExpansions ? e.terms.length - 1 : e.terms.length;
        const slots: PhraseSlot[] = e.terms.slice(0, fixed).map((t) => ({ terms: [t], prefix: false }));
        // Expansions looked up in an edge n-gram field (search_as_you_type's `._index_prefix`) are
        // prefixes of this field's token there (ES masks that span query as this field).
        if (e.prefixExpansions) slots.push({ terms: e.prefixExpansions, prefix: e.prefixField !== null });
        return { k: 'phrase', field: e.field, exec: e, slots, offsets: e.positions, slop: e.slop, key: e.terms.join(' ') };
      }
      case 'bool':
        return {
          k: 'bool', must: e.must.map(compile), should: e.should.map(compile), filter: e.filter.map(compile),
          mustNot: e.mustNot.map(compile), minimumShouldMatch: e.minimumShouldMatch,
        };
      case 'dis_max':
        return { k: 'any', clauses: e.clauses.map(compile) };
      case 'constant':
        return compile(e.filter);
      case 'function_score':
      case 'script_score':
        return compile(e.query);
      case 'boosting':
        // Lucene's FunctionScoreQuery extracts the wrapped (positive) query's terms only.
        return compile(e.positive);
      case 'match_all':
        return { k: 'all' };
      case 'match_none':
        return { k: 'none' };
      case 'feature':
      case 'numeric_range':
      case 'exists':
      case 'script_filter':
      case 'ids':
      case 'slice':
      case 'knn_exact':
      case 'knn_score_doc':
        return { k: 'doc', exec: e };
      default:
        return assertNever(e);
    }
  };
  return compile(exec);
}

function inRange(term: string, e: Extract<Exec, { kind: 'term_range' }>): boolean {
  if (e.lower !== null) {
    const c = compareCodePoints(term, e.lower);
    if (c < 0 || (c === 0 && !e.includeLower)) return false;
  }
  if (e.upper !== null) {
    const c = compareCodePoints(term, e.upper);
    if (c > 0 || (c === 0 && !e.includeUpper)) return false;
  }
  return true;
}
