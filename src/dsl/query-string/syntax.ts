/**
 * The `query_string` syntax (Lucene's classic QueryParser) → a typed AST. Pure syntax: no analysis,
 * no mappings. The grammar functions mirror the productions of QueryParser.jj one to one
 * (TopLevelQuery, Query, MultiTerm, Clause, Term, Conjunction, Modifiers), the clause bookkeeping
 * is QueryParserBase.addClause / addMultiTermClauses, and the leaf rules are Elasticsearch's
 * QueryStringQueryParser overrides (`_exists_`, `>=10` shorthand, `*`, fuzziness, blank query).
 * Behaviour follows https://www.elastic.co/docs/reference/query-languages/query-string-query-syntax
 */
import { QueryStringSyntaxError, addEscapes } from './errors.js';
import { InvalidEscapeError, discardEscapeChar } from './escape.js';
import { Lexer, TOKEN_IMAGE, TOKEN_ORDER, type Token, type TokenKind } from './lexer.js';

/**
 * BooleanClause.Occur. There is no "default": Lucene resolves clauses against the default operator
 * while parsing (addClause reads it, and an `OR` may even demote the clause before it), so
 * parseQueryString takes `default_operator` and returns resolved occurs.
 */
export type Occur = 'must' | 'should' | 'must_not';
/** `default_operator` of the query_string query, lower-cased. */
export type DefaultOperator = 'and' | 'or';

/** QsTerm.fuzziness of a bare `~`: use the query's `fuzziness` parameter (ES default AUTO). */
export const DEFAULT_FUZZINESS = 'default';

interface Boosted {
  /** `^n`; null when absent. Boosts on a parenthesised group that collapses into its only clause multiply. */
  readonly boost: number | null;
}

/** Field names are unescaped (`first\ name:x` → "first name"); null = the default field(s). */
type Field = string | null;

/** Text for the field's analyzer (QueryParserBase.getFieldQuery with quoted=false). */
export interface QsTerm extends Boosted {
  readonly kind: 'term';
  readonly field: Field;
  /** Unescaped. May contain spaces: an escaped space, or several words of a multiTerm run. */
  readonly text: string;
  /** null: not fuzzy. DEFAULT_FUZZINESS: a bare `~`. Otherwise the text after `~` as written ("1", "AUTO", "0.5", …), for ES Fuzziness to validate. */
  readonly fuzziness: string | null;
  /**
   * true when several whitespace-separated plain terms were read as one text (QueryParser.jj
   * MultiTerm; Lucene's default splitOnWhitespace=false, so `new york city` reaches the analyzer
   * whole: ES docs, "query_string … new york city is passed as-is to the analyzer"). The clauses
   * that analysis yields then join the enclosing bool directly, each with this clause's occur
   * (QueryParserBase.addMultiTermClauses), instead of nesting as one clause.
   */
  readonly multiTerm: boolean;
}

export interface QsPhrase extends Boosted {
  readonly kind: 'phrase';
  readonly field: Field;
  /** Unescaped, without the quotes. */
  readonly text: string;
  /** `"…"~n` (truncated to an int, as Lucene does); null = the query's `phrase_slop` (also for a bare or unparsable `~`). */
  readonly slop: number | null;
}

/** `foo*`: a single trailing `*` (PREFIXTERM). */
export interface QsPrefix extends Boosted {
  readonly kind: 'prefix';
  readonly field: Field;
  /** Unescaped, without the `*`. */
  readonly text: string;
}

/** Any other use of `*` / `?` (WILDTERM). */
export interface QsWildcard extends Boosted {
  readonly kind: 'wildcard';
  readonly field: Field;
  /** Raw, escapes kept: Lucene's WildcardQuery syntax, where `\*` is a literal star. */
  readonly pattern: string;
}

/** `/…/` */
export interface QsRegexp extends Boosted {
  readonly kind: 'regexp';
  readonly field: Field;
  /** Raw text between the slashes (`\/` kept), for Lucene RegExp syntax. */
  readonly pattern: string;
}

/** `[a TO b]`, `{a TO b}`, mixed brackets, and ES's `field:>=10` / `>` / `<` / `<=` shorthand. */
export interface QsRange extends Boosted {
  readonly kind: 'range';
  readonly field: Field;
  /** Unescaped; null = unbounded (`*`, also quoted or escaped, as ES's getRangeQuery override does). */
  readonly lower: string | null;
  readonly upper: string | null;
  readonly includeLower: boolean;
  readonly includeUpper: boolean;
}

/** `_exists_:field`, and `field:*` (ES getWildcardQuery: "effectively, we check if a field exists"). */
export interface QsExists extends Boosted {
  readonly kind: 'exists';
  /** May be a pattern (`_exists_:title.*`, `title.\*:*`). */
  readonly field: string;
}

/** `*:*`, and a lone `*` (see parseQueryString). */
export interface QsMatchAll extends Boosted {
  readonly kind: 'match_all';
}

export interface QsClause {
  readonly occur: Occur;
  readonly node: QsNode;
}

/** A parenthesised group of two or more clauses (or of one with a modifier), or the top level. */
export interface QsBool extends Boosted {
  readonly kind: 'bool';
  readonly clauses: readonly QsClause[];
}

export type QsNode = QsTerm | QsPhrase | QsPrefix | QsWildcard | QsRegexp | QsRange | QsExists | QsMatchAll | QsBool;

/**
 * Parses a query_string query.
 *
 * - Always returns a bool. A blank query (Java String.trim() empty) returns one without clauses:
 *   ES answers that with match_none (QueryStringQueryParser.parse), not with an empty bool's match_all.
 * - Occurs are resolved against `defaultOperator` exactly as Lucene's addClause does (see Occur).
 * - A group with a single unmodified clause is that clause (Lucene's Query() returns `firstQuery`),
 *   unless the clause is a multiTerm run, whose clause count only analysis knows.
 * - A lone `*` gives match_all; ES gives match_all only when the default field is `*` (the default
 *   `index.query.default_field`) and otherwise an exists query over the default fields.
 * - Pure-negative bools are left as they are; ES adds a match_all MUST (Queries.fixNegativeQueryIfNeeded).
 *
 * @throws QueryStringSyntaxError with Lucene's ParseException / TokenMgrError message.
 */
export function parseQueryString(query: string, defaultOperator: DefaultOperator = 'or'): QsBool {
  if (isJavaBlank(query)) return { kind: 'bool', clauses: [], boost: null };
  return new Parser(query, defaultOperator).topLevelQuery();
}

/** String.trim() removes every char <= U+0020, so U+3000 alone is not blank (and fails to parse). */
function isJavaBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x20) return false;
  return true;
}

const EXISTS_FIELD = '_exists_';

// First sets of the productions, recorded as "expected" when a choice fails (JavaCC's jj_la1).
const CONJUNCTION: readonly TokenKind[] = ['AND', 'OR'];
const MODIFIERS: readonly TokenKind[] = ['NOT', 'PLUS', 'MINUS'];
const TERM_START: readonly TokenKind[] = ['BAREOPER', 'STAR', 'QUOTED', 'TERM', 'PREFIXTERM', 'WILDTERM', 'REGEXPTERM', 'RANGEIN_START', 'RANGEEX_START', 'NUMBER'];
const CLAUSE_START: readonly TokenKind[] = ['LPAREN', ...TERM_START];
const QUERY_START: readonly TokenKind[] = [...MODIFIERS, ...CLAUSE_START];
const QUERY_CONTINUE: readonly TokenKind[] = [...CONJUNCTION, ...QUERY_START];
const RANGE_BOUND: readonly TokenKind[] = ['RANGE_GOOP', 'RANGE_QUOTED', 'RANGE_TO'];
/** QueryParser.disallowedPostMultiTerm: a term followed by one of these is not glued into a MultiTerm run. */
const NOT_AFTER_MULTI_TERM: readonly TokenKind[] = ['COLON', 'STAR', 'FUZZY_SLOP', 'CARAT', 'AND', 'OR'];

/** Deepest nesting of `( … )` groups accepted, as for JSON bodies (Jackson's default). */
export const MAX_GROUP_DEPTH = 1000;

/** QueryParserBase CONJ_* and MOD_*. */
type Conjunction = 'none' | 'and' | 'or';
type Modifier = 'none' | 'req' | 'not';

class Parser {
  private readonly lexer: Lexer;
  /** Tokens read ahead but not consumed (JavaCC's token.next chain). */
  private readonly ahead: Token[] = [];
  /** Kinds tried at the current token since the last consume (jj_la1 / jj_kind), for the error message. */
  private readonly expected = new Set<TokenKind>();
  /** Parenthesised groups open at this point. */
  private depth = 0;

  constructor(
    private readonly query: string,
    private readonly operator: DefaultOperator,
  ) {
    this.lexer = new Lexer(query);
  }

  /** TopLevelQuery ::= Query <EOF>; a lone unmodified clause is wrapped with the occur addClause gave it. */
  topLevelQuery(): QsBool {
    const q = this.parseQuery(null);
    this.consume('EOF');
    return q.kind === 'bool' ? q : { kind: 'bool', clauses: [{ occur: this.defaultOccur(), node: q }], boost: null };
  }

  /** Query ::= ( MultiTerm | Modifiers Clause ) ( MultiTerm | Conjunction Modifiers Clause )* */
  private parseQuery(field: Field): QsNode {
    const clauses: QsClause[] = [];
    let first: QsNode | null = null;
    if (this.multiTermAhead()) {
      this.multiTerm(field, clauses);
    } else {
      if (!this.lookingAt(QUERY_START)) throw this.parseError();
      const mods = this.modifiers();
      const q = this.clause(field);
      this.addClause(clauses, 'none', mods, q);
      if (mods === 'none') first = q;
    }
    for (;;) {
      if (this.multiTermAhead()) {
        this.multiTerm(field, clauses);
        continue;
      }
      if (!this.lookingAt(QUERY_CONTINUE)) break;
      const conj = this.conjunction();
      const mods = this.modifiers();
      this.addClause(clauses, conj, mods, this.clause(field));
    }
    // Lucene returns `firstQuery` itself here; it also does so for a MultiTerm run that analysis
    // turned into one clause, which we cannot know, so runs stay wrapped.
    if (clauses.length === 1 && first !== null) return first;
    return { kind: 'bool', clauses, boost: null };
  }

  /** LOOKAHEAD(2) MultiTerm: <TERM> <TERM>, the second not followed by a disallowed token. */
  private multiTermAhead(): boolean {
    return this.peek(1).kind === 'TERM' && this.peek(2).kind === 'TERM' && !NOT_AFTER_MULTI_TERM.includes(this.peek(3).kind);
  }

  /** MultiTerm: plain terms joined with one space, then addMultiTermClauses. */
  private multiTerm(field: Field, clauses: QsClause[]): void {
    const first = this.consume('TERM');
    let image = first.image;
    while (this.peek(1).kind === 'TERM' && !NOT_AFTER_MULTI_TERM.includes(this.peek(2).kind)) {
      image += ' ' + this.consume('TERM').image;
    }
    // A run is never followed by AND/OR (see NOT_AFTER_MULTI_TERM), so addClause never revisits it:
    // its occur is the default operator's.
    clauses.push({ occur: this.defaultOccur(), node: this.fieldQuery(field, this.unescape(image, first.begin), true) });
  }

  private conjunction(): Conjunction {
    if (!this.lookingAt(CONJUNCTION)) return 'none';
    return this.next().kind === 'AND' ? 'and' : 'or';
  }

  private modifiers(): Modifier {
    if (!this.lookingAt(MODIFIERS)) return 'none';
    return this.next().kind === 'PLUS' ? 'req' : 'not';
  }

  /** Clause ::= [ (<TERM> | "*") ":" ] ( Term | "(" Query ")" [ "^" <NUMBER> ] ) */
  private clause(field: Field): QsNode {
    const t = this.peek(1);
    if ((t.kind === 'TERM' || t.kind === 'STAR') && this.peek(2).kind === 'COLON') {
      this.next();
      this.next();
      field = t.kind === 'STAR' ? '*' : this.unescape(t.image, t.begin);
    }
    if (!this.lookingAt(CLAUSE_START)) throw this.parseError();
    if (this.peek().kind !== 'LPAREN') return this.term(field);
    const open = this.next();
    // Each group recurses; Lucene's parser would overflow the stack on 100,000 `(` as this one did.
    if (++this.depth > MAX_GROUP_DEPTH) {
      throw new QueryStringSyntaxError(this.query, open.begin, `Query nesting depth (${this.depth}) exceeds the maximum allowed (${MAX_GROUP_DEPTH})`);
    }
    const q = this.parseQuery(field);
    this.depth--;
    this.consume('RPAREN');
    return withBoost(q, this.optionalBoost());
  }

  /** Term: a bare token, a range or a quoted phrase, each with its optional `^boost` and `~slop`. */
  private term(field: Field): QsNode {
    const t = this.next();
    if (t.kind === 'RANGEIN_START' || t.kind === 'RANGEEX_START') return this.range(field, t.kind === 'RANGEIN_START');
    let boost: Token | null = null;
    let slop: Token | null = null;
    if (this.lookingAt(['CARAT', 'FUZZY_SLOP'])) {
      if (this.peek().kind === 'CARAT') {
        this.next();
        boost = this.consume('NUMBER');
        if (this.lookingAt(['FUZZY_SLOP'])) slop = this.next();
      } else {
        slop = this.next();
        boost = this.optionalBoost();
      }
    }
    return withBoost(t.kind === 'QUOTED' ? this.quotedTerm(field, t, slop) : this.bareToken(field, t, slop), boost);
  }

  /** QueryParserBase.handleBareTokenQuery with ES's getWildcardQuery / getFuzzyDistance. */
  private bareToken(field: Field, t: Token, slop: Token | null): QsNode {
    // BAREOPER ("+ ") is searched as its operator char; Lucene unescapes every image up front.
    const text = this.unescape(t.kind === 'BAREOPER' ? t.image[0] : t.image, t.begin);
    switch (t.kind) {
      case 'STAR':
      case 'WILDTERM':
        if (t.image !== '*') return { kind: 'wildcard', field, pattern: t.image, boost: null };
        if (field === null || field === '*') return { kind: 'match_all', boost: null };
        return { kind: 'exists', field, boost: null };
      case 'PREFIXTERM':
        return { kind: 'prefix', field, text: this.unescape(t.image.slice(0, -1), t.begin), boost: null };
      case 'REGEXPTERM':
        return { kind: 'regexp', field, pattern: t.image.slice(1, -1), boost: null };
    }
    if (slop !== null) {
      const fuzziness = slop.image.length === 1 ? DEFAULT_FUZZINESS : slop.image.slice(1);
      return { kind: 'term', field, text, fuzziness, multiTerm: false, boost: null };
    }
    return this.fieldQuery(field, text, false);
  }

  /** QueryParserBase.handleQuotedTerm; `_exists_:"f"` is an exists query in ES too. */
  private quotedTerm(field: Field, t: Token, slop: Token | null): QsNode {
    const text = this.unescape(t.image.slice(1, -1), t.begin);
    if (field === EXISTS_FIELD) return { kind: 'exists', field: text, boost: null };
    return { kind: 'phrase', field, text, slop: slop === null ? null : javaFloatToInt(slop.image.slice(1)), boost: null };
  }

  /** ES QueryStringQueryParser.getFieldQuery(field, text, quoted=false), before any analysis. */
  private fieldQuery(field: Field, text: string, multiTerm: boolean): QsNode {
    if (field === EXISTS_FIELD) return { kind: 'exists', field: text, boost: null };
    // ">", ">=", "<", "<=" open one side of a range, but only after an explicit field (`age:>=10`),
    // and only when something follows the operator: `age:>` is the term ">", `age:>=` is `> "="`.
    if (field !== null && text.length > 1) {
      const orEqual = text.length > 2 && text[1] === '=';
      const bound = text.slice(orEqual ? 2 : 1);
      if (text[0] === '>') return rangeNode(field, bound, null, orEqual, true);
      if (text[0] === '<') return rangeNode(field, null, bound, true, orEqual);
    }
    return { kind: 'term', field, text, fuzziness: null, multiTerm, boost: null };
  }

  /** ( "[" | "{" ) bound "TO" bound ( "]" | "}" ) [ "^" <NUMBER> ] */
  private range(field: Field, includeLower: boolean): QsNode {
    const lower = this.rangeBound();
    this.consume('RANGE_TO');
    const upper = this.rangeBound();
    if (!this.lookingAt(['RANGEIN_END', 'RANGEEX_END'])) throw this.parseError();
    const includeUpper = this.next().kind === 'RANGEIN_END';
    return withBoost(rangeNode(field, lower, upper, includeLower, includeUpper), this.optionalBoost());
  }

  /** A bound is a RANGE_GOOP, a RANGE_QUOTED (quotes dropped) or even the word TO. */
  private rangeBound(): string {
    if (!this.lookingAt(RANGE_BOUND)) throw this.parseError();
    const t = this.next();
    return this.unescape(t.kind === 'RANGE_QUOTED' ? t.image.slice(1, -1) : t.image, t.begin);
  }

  private optionalBoost(): Token | null {
    if (!this.lookingAt(['CARAT'])) return null;
    this.next();
    return this.consume('NUMBER');
  }

  /** QueryParserBase.addClause, verbatim in effect. `a AND b OR c` is +a +b c with OR, +a b c with AND. */
  private addClause(clauses: QsClause[], conj: Conjunction, mods: Modifier, node: QsNode): void {
    const last = clauses.length - 1;
    // "If this term is introduced by AND, make the preceding term required, unless it's already prohibited"
    if (last >= 0 && conj === 'and' && clauses[last].occur !== 'must_not') {
      clauses[last] = { occur: 'must', node: clauses[last].node };
    }
    // "If this term is introduced by OR, make the preceding term optional, unless it's prohibited"
    // (default AND only: otherwise `a OR b` would be +a b).
    if (last >= 0 && this.operator === 'and' && conj === 'or' && clauses[last].occur !== 'must_not') {
      clauses[last] = { occur: 'should', node: clauses[last].node };
    }
    const prohibited = mods === 'not';
    const required = this.operator === 'or' ? mods === 'req' || (conj === 'and' && !prohibited) : !prohibited && conj !== 'or';
    clauses.push({ occur: prohibited ? 'must_not' : required ? 'must' : 'should', node });
  }

  private defaultOccur(): Occur {
    return this.operator === 'and' ? 'must' : 'should';
  }

  private unescape(text: string, at: number): string {
    try {
      return discardEscapeChar(text);
    } catch (e) {
      if (e instanceof InvalidEscapeError) throw new QueryStringSyntaxError(this.query, at, e.message);
      throw e;
    }
  }

  // --- token plumbing (JavaCC's getToken / jj_consume_token / jj_la1) ---

  private peek(k = 1): Token {
    while (this.ahead.length < k) this.ahead.push(this.lexer.next());
    return this.ahead[k - 1];
  }

  private next(): Token {
    const t = this.peek();
    this.ahead.shift();
    this.expected.clear();
    return t;
  }

  private consume(kind: TokenKind): Token {
    if (this.peek().kind === kind) return this.next();
    this.expected.add(kind);
    throw this.parseError();
  }

  /** Is the next token one of `kinds`? If not, they join the "Was expecting" list. */
  private lookingAt(kinds: readonly TokenKind[]): boolean {
    if (kinds.includes(this.peek().kind)) return true;
    for (const k of kinds) this.expected.add(k);
    return false;
  }

  /** JavaCC ParseException.initialise; one token of context, and the expected kinds in ordinal order. */
  private parseError(): QueryStringSyntaxError {
    const t = this.peek();
    const found = t.kind === 'EOF' ? TOKEN_IMAGE.EOF : ` ${TOKEN_IMAGE[t.kind]} "${addEscapes(t.image)} "`;
    const kinds = TOKEN_ORDER.filter((k) => this.expected.has(k));
    let reason = `Encountered "${found}" at line 1, column ${t.begin}.\n`;
    reason += kinds.length === 1 ? 'Was expecting:\n    ' : 'Was expecting one of:\n    ';
    for (const k of kinds) reason += `${TOKEN_IMAGE[k]} ${k === 'EOF' ? '' : '...'}\n    `;
    return new QueryStringSyntaxError(this.query, t.begin, reason);
  }
}

/** ES getRangeQuery treats a `*` bound as open even when it was quoted or escaped. */
function rangeNode(field: Field, lower: string | null, upper: string | null, includeLower: boolean, includeUpper: boolean): QsRange {
  return {
    kind: 'range', field,
    lower: lower === '*' ? null : lower,
    upper: upper === '*' ? null : upper,
    includeLower, includeUpper, boost: null,
  };
}

/** QueryParserBase.handleBoost: wraps in a BoostQuery, so boosts on nested groups multiply. */
function withBoost(node: QsNode, boost: Token | null): QsNode {
  if (boost === null) return node;
  const value = Number(boost.image); // NUMBER is digits("."digits)?, always a valid number
  return { ...node, boost: node.boost === null ? value : node.boost * value };
}

/** `(int) Float.parseFloat(s)` as handleQuotedTerm does it, or null where Java throws (then phrase_slop applies). */
function javaFloatToInt(s: string): number | null {
  const t = s.trim();
  if (!/^[+-]?(NaN|Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?)$/.test(t)) return null;
  const v = Math.fround(Number(t.replace(/[fFdD]$/, '')));
  if (Number.isNaN(v)) return 0;
  return Math.max(-2147483648, Math.min(2147483647, Math.trunc(v)));
}
