/**
 * The query's matches in one field of one hit: offset ranges of the field's content, each with the
 * identity the passage scorer counts it under.
 *
 * - Weight-matches mode (ES 8.10+ with require_field_match, Lucene's Weight#matches): the query tree
 *   is evaluated on the document as Lucene's BooleanWeight.matches does — a must/filter clause that
 *   does not match drops the whole bool, must_not clauses that match drop it too, should clauses
 *   count towards minimum_should_match and add their matches only when they match. Leaves on the
 *   highlighted field are judged by its re-analysed text; others by the hit's segment (doc-match.ts).
 *   A phrase is one match from its first to its last term.
 * - Term mode (require_field_match false, and fused hybrid pages, for which ES turns the matches mode
 *   off): every term of every clause outside must_not, on any field, highlighted wherever it occurs;
 *   a phrase's terms only where the phrase matches (Lucene's strict phrases), each on its own.
 *
 * Terms of a search_as_you_type field's `._index_prefix` (what prefix queries on the field search)
 * are prefixes of the field's own words, so they highlight the field's text as the words they
 * begin, as a phrase prefix does (ES masks those queries as the field).
 */
import type { Segment } from '../../index/index.js';
import type { DocMatcher } from './doc-match.js';
import type { FieldText } from './field-text.js';
import type { HighlightNode, PhraseLeaf, PhraseSlot, TokenLeaf } from './highlight-query.js';

export interface Match {
  readonly start: number;
  readonly end: number;
  /** What the passage scorer counts as one term. */
  readonly key: string;
}

/** The highlighted field and its values. */
export interface FieldMatchContext {
  readonly field: string;
  /** The field's `._index_prefix` subfield (search_as_you_type), whose terms prefix its words. */
  readonly prefixField: string | null;
  readonly text: FieldText;
}

export interface MatchContext extends FieldMatchContext {
  readonly docs: DocMatcher;
  readonly segment: Segment;
  readonly doc: number;
}

/** Matches in document order (by start, then end), as Lucene's OffsetsEnum queue yields them. */
export function weightMatches(root: HighlightNode, ctx: MatchContext): Match[] {
  const index = new TokenIndex(ctx.text);
  const evaluate = (node: HighlightNode): Match[] | null => {
    switch (node.k) {
      case 'token': {
        const masked = node.field === ctx.prefixField ? prefixPhrases(node) : null;
        if (masked) return nonEmpty(masked.flatMap((p) => index.phrases(p).map((tokens) => spanMatch(ctx.text, tokens, p.key))));
        if (node.field !== ctx.field) return leafOnDoc(node);
        return nonEmpty(index.tokens(node).map((i) => tokenMatch(ctx.text, i, node.key ?? ctx.text.terms[i])));
      }
      case 'phrase':
        if (node.field !== ctx.field) return leafOnDoc(node);
        return nonEmpty(index.phrases(node).map((tokens) => spanMatch(ctx.text, tokens, node.key)));
      case 'doc':
        return ctx.docs.matches(node.exec, ctx.segment, ctx.doc) ? [] : null;
      case 'all':
        return [];
      case 'none':
        return null;
      case 'any': {
        let out: Match[] | null = null;
        for (const c of node.clauses) {
          const m = evaluate(c);
          if (m !== null) out = out === null ? m : out.concat(m);
        }
        return out;
      }
      case 'bool': {
        for (const c of node.mustNot) if (evaluate(c) !== null) return null;
        const out: Match[] = [];
        for (const c of node.must) if (!append(out, evaluate(c))) return null;
        for (const c of node.filter) if (!append(out, evaluate(c))) return null;
        let matched = 0;
        for (const c of node.should) if (append(out, evaluate(c))) matched++;
        return matched < node.minimumShouldMatch ? null : out;
      }
    }
  };
  const leafOnDoc = (leaf: TokenLeaf | PhraseLeaf): Match[] | null => (ctx.docs.matches(leaf.exec, ctx.segment, ctx.doc) ? [] : null);
  return sortMatches(evaluate(root) ?? []);
}

/** Term mode; with `requireFieldMatch`, only clauses on the highlighted field count. */
export function termMatches(root: HighlightNode, ctx: FieldMatchContext, requireFieldMatch: boolean): Match[] {
  const { text, field } = ctx;
  const index = new TokenIndex(text);
  const out: Match[] = [];
  const visit = (node: HighlightNode): void => {
    switch (node.k) {
      case 'token': {
        const masked = node.field === ctx.prefixField ? prefixPhrases(node) : null;
        if (masked) {
          for (const p of masked) for (const tokens of index.phrases(p)) for (const i of tokens) out.push(tokenMatch(text, i, text.terms[i]));
          return;
        }
        if (requireFieldMatch && node.field !== field) return;
        for (const i of index.tokens(node)) out.push(tokenMatch(text, i, node.key ?? text.terms[i]));
        return;
      }
      case 'phrase':
        if (requireFieldMatch && node.field !== field) return;
        for (const tokens of index.phrases(node)) for (const i of tokens) out.push(tokenMatch(text, i, text.terms[i]));
        return;
      case 'bool':
        // Lucene's QueryVisitor does not descend into MUST_NOT clauses.
        for (const list of [node.must, node.filter, node.should]) list.forEach(visit);
        return;
      case 'any':
        node.clauses.forEach(visit);
        return;
      case 'doc': case 'all': case 'none':
        return;
    }
  };
  visit(root);
  // Terms are extracted as a set: one match per term and place.
  const seen = new Set<string>();
  return sortMatches(out).filter((m) => {
    const id = `${m.start}:${m.end}:${m.key}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

const prefixPhraseCache = new WeakMap<TokenLeaf, PhraseLeaf[] | null>();

/**
 * An `._index_prefix` term ("wireless ea": edge n-grams of shingles) as a phrase over the field's
 * words, its last word a prefix; null for leaves without exact terms (case-insensitive patterns).
 */
function prefixPhrases(leaf: TokenLeaf): PhraseLeaf[] | null {
  let phrases = prefixPhraseCache.get(leaf);
  if (phrases === undefined) {
    phrases = leaf.terms === null ? null : leaf.terms.map((term) => {
      const words = term.split(' ');
      const slots: PhraseSlot[] = words.map((w, i) => ({ terms: [w], prefix: i === words.length - 1 }));
      return { k: 'phrase', field: leaf.field, exec: leaf.exec, slots, offsets: words.map((_, i) => i), slop: 0, key: term };
    });
    prefixPhraseCache.set(leaf, phrases);
  }
  return phrases;
}

function tokenMatch(text: FieldText, i: number, key: string): Match {
  return { start: text.starts[i], end: text.ends[i], key };
}

/** A whole phrase occurrence: from its first token's start to its last token's end. */
function spanMatch(text: FieldText, tokens: readonly number[], key: string): Match {
  let start = Infinity;
  let end = -Infinity;
  for (const i of tokens) {
    start = Math.min(start, text.starts[i]);
    end = Math.max(end, text.ends[i]);
  }
  return { start, end, key };
}

function nonEmpty(matches: Match[]): Match[] | null {
  return matches.length > 0 ? matches : null;
}

function append(out: Match[], m: Match[] | null): boolean {
  if (m === null) return false;
  for (const x of m) out.push(x);
  return true;
}

function sortMatches(m: Match[]): Match[] {
  return m.sort((a, b) => a.start - b.start || a.end - b.end || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Lookups over one field's tokens: by term, built on first use. */
class TokenIndex {
  private byTerm: Map<string, number[]> | null = null;

  constructor(private readonly text: FieldText) {}

  /** Indices of the tokens a leaf matches. */
  tokens(leaf: TokenLeaf): readonly number[] {
    if (leaf.terms !== null) return leaf.terms.length === 1 ? this.termIndex().get(leaf.terms[0]) ?? [] : this.lookup(leaf.terms);
    const out: number[] = [];
    const terms = this.text.terms;
    for (let i = 0; i < terms.length; i++) if (leaf.test(terms[i])) out.push(i);
    return out;
  }

  /** Every occurrence of the phrase, as the token index at each slot. */
  phrases(leaf: PhraseLeaf): number[][] {
    // Per slot, the positions (minus the slot's offset) of tokens holding one of its terms.
    const lists = leaf.slots.map((slot, s) => this.slotTokens(slot)
      .map((token) => ({ p: this.text.positions[token] - leaf.offsets[s], token }))
      .sort((a, b) => a.p - b.p || a.token - b.token));
    if (lists.some((l) => l.length === 0)) return [];
    return leaf.slop === 0 ? exactPhrases(lists) : sloppyPhrases(lists, leaf.slop);
  }

  private slotTokens(slot: PhraseSlot): number[] {
    if (!slot.prefix) return this.lookup(slot.terms);
    const out: number[] = [];
    const terms = this.text.terms;
    for (let i = 0; i < terms.length; i++) if (slot.terms.some((p) => terms[i].startsWith(p))) out.push(i);
    return out;
  }

  /** Tokens equal to any of `terms`, in token order. */
  private lookup(terms: readonly string[]): number[] {
    const out: number[] = [];
    for (const t of new Set(terms)) for (const i of this.termIndex().get(t) ?? []) out.push(i);
    return out.sort((a, b) => a - b);
  }

  private termIndex(): Map<string, number[]> {
    if (this.byTerm === null) {
      this.byTerm = new Map();
      this.text.terms.forEach((t, i) => {
        const list = this.byTerm!.get(t);
        if (list) list.push(i);
        else this.byTerm!.set(t, [i]);
      });
    }
    return this.byTerm;
  }
}

type SlotList = ReadonlyArray<{ readonly p: number; readonly token: number }>;

/** ExactPhraseMatcher: every slot at the same normalised position. */
function exactPhrases(lists: readonly SlotList[]): number[][] {
  const out: number[][] = [];
  const idx = lists.map(() => 0);
  for (const first of lists[0]) {
    const tokens = [first.token];
    for (let s = 1; s < lists.length; s++) {
      const list = lists[s];
      while (idx[s] < list.length && list[idx[s]].p < first.p) idx[s]++;
      if (idx[s] >= list.length) return out;
      if (list[idx[s]].p !== first.p) break;
      tokens.push(list[idx[s]].token);
    }
    if (tokens.length === lists.length) out.push(tokens);
  }
  return out;
}

/** SloppyPhraseMatcher, simplified: windows of one entry per slot whose normalised spread is within the slop. */
function sloppyPhrases(lists: readonly SlotList[], slop: number): number[][] {
  const out: number[][] = [];
  const idx = lists.map(() => 0);
  for (;;) {
    let min = Infinity;
    let max = -Infinity;
    let minSlot = 0;
    for (let s = 0; s < lists.length; s++) {
      const p = lists[s][idx[s]].p;
      if (p < min) {
        min = p;
        minSlot = s;
      }
      if (p > max) max = p;
    }
    if (max - min <= slop) out.push(lists.map((l, s) => l[idx[s]].token));
    if (++idx[minSlot] >= lists[minSlot].length) return out;
  }
}
