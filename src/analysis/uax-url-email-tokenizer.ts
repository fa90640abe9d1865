/**
 * Lucene's UAX29URLEmailTokenizer (Elasticsearch's `uax_url_email`): the standard tokenizer's word
 * breaks plus URLs and e-mail addresses as single tokens of type `<URL>` and `<EMAIL>`.
 *
 * The grammar is Lucene's `UAX29URLEmailTokenizerImpl.jflex`, transcribed macro for macro (same
 * names) onto the lazy DFA the standard tokenizer runs on (lazy-dfa.ts), with the standard rules
 * reused as they are. As in JFlex, the scanner takes the longest match of any rule, ties going to
 * the rule listed first; nothing backtracks, every character is one table step.
 *
 * Two things the standard grammar does not have:
 * - Trailing context. `{URIhostStrict} / [^-\w]` matches a scheme-less host only when the next
 *   character is not a word character or `-`; the context counts towards the match length and is
 *   then given back. Here it is a rule whose pattern ends with the context character; its token
 *   stops one code point short of the match (`mailto` before `:` + an e-mail: six characters).
 * - The lexical state AVOID_BAD_URL (LUCENE-5391). A host followed by a word character or `-`
 *   (`example.com1`, `example.co` inside `example.com-x`) switches to AVOID_BAD_URL and rescans the
 *   same text without the host rules there, so the standard word rules take it; any token returns
 *   to the initial state. Each state is its own DFA (same character classes).
 *
 * The TLD list (top-level-domains.ts) is the `tlds` package's, built into the DFA as a trie.
 * Offsets are UTF-16 code-unit offsets; the `max_token_length` buffer limit as in the standard
 * tokenizer (a lexeme, trailing context included, never reaches past start + max length).
 */
import { CharClasses, codePointWidth, walkLongest, type LongestMatch } from './dfa-scan.js';
import {
  alt,
  compileLazyDfa,
  opt,
  plus,
  seq,
  set,
  star,
  times,
  type ClassPredicate,
  type LazyDfa,
  type Pattern,
} from './lazy-dfa.js';
import { ScanMemo } from './scan-memo.js';
import { ALPHANUM, DEFAULT_MAX_TOKEN_LENGTH, GRAMMAR_ORDER, MAX_TOKEN_LENGTH_LIMIT, NUM, RULES, TOKEN_TYPES } from './standard-tokenizer.js';
import { allAsciiTlds, grammarTldBuckets } from './top-level-domains.js';
import type { Tokenizer } from './token-stream.js';
import { computeFeatures } from './word-break-property.js';

/** Token types beyond the standard tokenizer's (indexes into UAX_TOKEN_TYPES). */
export const URL = TOKEN_TYPES.length;
export const EMAIL = URL + 1;
/** The standard types plus `<URL>` and `<EMAIL>`, as Lucene's UAX29URLEmailTokenizer reports them. */
export const UAX_TOKEN_TYPES: readonly string[] = [...TOKEN_TYPES, '<URL>', '<EMAIL>'];

// ---------------------------------------------------------------------------------------------
// Character classes. A class key is the standard tokenizer's property bits plus, for ASCII, the
// character itself (case-folded: every ASCII set of this grammar holds both cases) and a \w bit.

const ASCII_SHIFT = 20;
/** JFlex `\w` outside ASCII (UTS#18: alphabetic, marks, decimal digits, connector punctuation, joiners). */
const F_WORD = 1 << 28;
const RE_WORD = /[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]/u;

/** The ASCII representative of `c`: upper case folds to lower, and the controls every set treats alike to 1. */
function asciiRepresentative(c: number): number {
  if (c >= 0x41 && c <= 0x5a) return c + 0x20;
  if ((c >= 1 && c <= 8) || c === 0x0b || c === 0x0c || (c >= 0x0e && c <= 0x1f)) return 1;
  return c;
}

function classKey(cp: number): number {
  const features = computeFeatures(cp);
  if (cp < 0x80) return features | ((asciiRepresentative(cp) + 1) << ASCII_SHIFT);
  return RE_WORD.test(String.fromCodePoint(cp)) ? features | F_WORD : features;
}

/** A set of ASCII characters, by a test on the (lower-case) character code. */
function ascii(test: (c: number) => boolean): ClassPredicate {
  const member = new Uint8Array(129);
  for (let c = 0; c < 0x80; c++) if (test(c)) member[asciiRepresentative(c) + 1] = 1;
  return (f) => member[(f >>> ASCII_SHIFT) & 0xff] === 1;
}
const charCodes = (chars: string) => (c: number): boolean => chars.includes(String.fromCharCode(c));
const inRange = (lo: number, hi: number) => (c: number): boolean => c >= lo && c <= hi;
const isAlnum = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

const literalPreds = new Map<string, ClassPredicate>();
/** A literal, case-insensitive as the grammar's `[hH][tT]…` spellings. */
function lit(text: string): Pattern {
  return seq(...[...text.toLowerCase()].map((ch) => {
    let pred = literalPreds.get(ch);
    if (pred === undefined) {
      const code = ch.charCodeAt(0);
      pred = ascii((c) => asciiRepresentative(c) === asciiRepresentative(code));
      literalPreds.set(ch, pred);
    }
    return set(pred);
  }));
}
/** `{0,n}` */
const upTo = (p: Pattern, n: number): Pattern => seq(...new Array<Pattern>(n).fill(opt(p)));

// The TLD alternation as a trie, so that a "." leads into 26-odd branches, not 1,500.
function tldTrie(tlds: readonly string[]): Pattern {
  interface Node { end: boolean; children: Map<string, Node> }
  const root: Node = { end: false, children: new Map() };
  for (const tld of tlds) {
    let node = root;
    for (const ch of tld) {
      let child = node.children.get(ch);
      if (child === undefined) node.children.set(ch, (child = { end: false, children: new Map() }));
      node = child;
    }
    node.end = true;
  }
  const build = (node: Node): Pattern => {
    const branches = [...node.children].map(([ch, child]) => seq(lit(ch), build(child)));
    if (node.end) branches.push(seq());
    return alt(...branches);
  };
  return build(root);
}

/** The grammar's patterns the rules use (built on first use, with the automata: see scanner()). */
interface Grammar {
  readonly URLpattern: Pattern;
  readonly URIhostStrict: Pattern;
  readonly URIhostStrict_NoTLDprefix: Pattern;
  readonly URIhostStrict_TLDprefix_1CharSuffix: Pattern;
  readonly URIhostStrict_TLDprefix_2CharSuffix: Pattern;
  readonly EMAILpattern: Pattern;
}

/**
 * The grammar (UAX29URLEmailTokenizerImpl.jflex), macro for macro. Built only when the automata are
 * compiled: the TLD tries alone are ~15 MB and ~100 ms, which every thread paid at module load.
 */
function grammar(): Grammar {
  const DIGIT = set(ascii(inRange(0x30, 0x39)));
  const HEX = set(ascii(isHex));
  const ALNUM = set(ascii(isAlnum));
  const DOT = lit('.');
  const COLON = lit(':');

  const TLD_BUCKETS = grammarTldBuckets(allAsciiTlds());
  // ASCIITLD, ASCIITLDprefix_1CharSuffix, ASCIITLDprefix_2CharSuffix; "."? accepts the root domain.
  const [ASCIITLD, ASCIITLDprefix_1CharSuffix, ASCIITLDprefix_2CharSuffix] = TLD_BUCKETS.map((tlds) => seq(DOT, tldTrie(tlds), opt(DOT)));
  const DomainLabel = seq(ALNUM, opt(seq(star(set(ascii((c) => isAlnum(c) || c === 0x2d))), ALNUM)));
  const DomainLabelSequence = seq(DomainLabel, star(seq(DOT, DomainLabel)));
  const DomainNameStrict = seq(DomainLabelSequence, alt(ASCIITLD, ASCIITLDprefix_1CharSuffix, ASCIITLDprefix_2CharSuffix));
  const DomainNameStrict_NoTLDprefix = seq(DomainLabelSequence, ASCIITLD);
  const DomainNameStrict_TLDprefix_1CharSuffix = seq(DomainLabelSequence, ASCIITLDprefix_1CharSuffix);
  const DomainNameStrict_TLDprefix_2CharSuffix = seq(DomainLabelSequence, ASCIITLDprefix_2CharSuffix);
  const DomainNameLoose = seq(DomainLabel, star(seq(DOT, DomainLabel)));

  const IPv4DecimalOctet = alt(
    seq(upTo(lit('0'), 2), DIGIT),
    seq(opt(lit('0')), set(ascii(inRange(0x31, 0x39))), DIGIT),
    seq(lit('1'), DIGIT, DIGIT),
    seq(lit('2'), alt(seq(set(ascii(inRange(0x30, 0x34))), DIGIT), seq(lit('5'), set(ascii(inRange(0x30, 0x35)))))),
  );
  const IPv4Address = seq(IPv4DecimalOctet, times(seq(DOT, IPv4DecimalOctet), 3));
  const IPv6Hex16Bit = seq(HEX, upTo(HEX, 3));
  const IPv6LeastSignificant32Bits = alt(IPv4Address, seq(IPv6Hex16Bit, COLON, IPv6Hex16Bit));
  const H = seq(IPv6Hex16Bit, COLON);
  const DOUBLE_COLON = lit('::');
  const headed = (n: number): Pattern => opt(seq(upTo(H, n), IPv6Hex16Bit));
  const IPv6Address = alt(
    seq(times(H, 6), IPv6LeastSignificant32Bits),
    seq(DOUBLE_COLON, times(H, 5), IPv6LeastSignificant32Bits),
    seq(opt(IPv6Hex16Bit), DOUBLE_COLON, times(H, 4), IPv6LeastSignificant32Bits),
    seq(headed(1), DOUBLE_COLON, times(H, 3), IPv6LeastSignificant32Bits),
    seq(headed(2), DOUBLE_COLON, times(H, 2), IPv6LeastSignificant32Bits),
    seq(headed(3), DOUBLE_COLON, IPv6Hex16Bit, COLON, IPv6LeastSignificant32Bits),
    seq(headed(4), DOUBLE_COLON, IPv6LeastSignificant32Bits),
    seq(headed(5), DOUBLE_COLON, IPv6Hex16Bit),
    seq(headed(6), DOUBLE_COLON),
  );

  const URIunreserved = set(ascii((c) => isAlnum(c) || charCodes('-._~')(c)));
  const URIpercentEncoded = seq(lit('%'), HEX, HEX);
  const URIsubDelims = set(ascii(charCodes('!$&\'()*+,;=')));
  const URIloginSegment = star(alt(URIunreserved, URIpercentEncoded, URIsubDelims));
  const URIlogin = seq(URIloginSegment, opt(seq(COLON, URIloginSegment)), lit('@'));
  const URIqueryChar = alt(URIunreserved, URIpercentEncoded, URIsubDelims, set(ascii(charCodes(':@/?'))));
  const URIquery = seq(lit('?'), star(URIqueryChar));
  const URIfragment = seq(lit('#'), star(URIqueryChar));
  const URIport = seq(COLON, DIGIT, upTo(DIGIT, 4));
  const bracketedIPv6 = seq(lit('['), IPv6Address, lit(']'));
  const URIhostStrict = alt(bracketedIPv6, IPv4Address, DomainNameStrict);
  const URIhostStrict_NoTLDprefix = alt(bracketedIPv6, IPv4Address, DomainNameStrict_NoTLDprefix);
  const URIhostStrict_TLDprefix_1CharSuffix = alt(bracketedIPv6, IPv4Address, DomainNameStrict_TLDprefix_1CharSuffix);
  const URIhostStrict_TLDprefix_2CharSuffix = alt(bracketedIPv6, IPv4Address, DomainNameStrict_TLDprefix_2CharSuffix);
  const URIhostLoose = alt(bracketedIPv6, IPv4Address, DomainNameLoose);
  const URIauthorityLoose = seq(opt(URIlogin), URIhostLoose, opt(URIport));

  const HTTPsegment = star(alt(URIunreserved, URIpercentEncoded, set(ascii(charCodes(';:@&=')))));
  const HTTPpath = plus(seq(lit('/'), HTTPsegment));
  const HTTPscheme = seq(lit('http'), opt(lit('s')), lit('://'));
  const HTTPurlFull = seq(HTTPscheme, opt(URIlogin), URIhostLoose, opt(URIport), opt(HTTPpath), opt(URIquery), opt(URIfragment));
  const URIportRequired = seq(URIport, opt(HTTPpath), opt(URIquery), opt(URIfragment));
  const HTTPpathRequired = seq(opt(URIport), HTTPpath, opt(URIquery), opt(URIfragment));
  const URIqueryRequired = seq(opt(URIport), opt(HTTPpath), URIquery, opt(URIfragment));
  const URIfragmentRequired = seq(opt(URIport), opt(HTTPpath), opt(URIquery), URIfragment);
  // Without URIlogin, which would otherwise accept e-mail addresses.
  const HTTPurlNoScheme = seq(URIhostStrict, alt(URIportRequired, HTTPpathRequired, URIqueryRequired, URIfragmentRequired));
  const HTTPurl = alt(HTTPurlFull, HTTPurlNoScheme);

  const FTPorFILEsegment = star(alt(URIunreserved, URIpercentEncoded, set(ascii(charCodes('?:@&=')))));
  const FTPorFILEpath = seq(lit('/'), FTPorFILEsegment, star(seq(lit('/'), FTPorFILEsegment)));
  const FTPtype = seq(lit(';type='), set(ascii(charCodes('aid'))));
  const FTPurl = seq(lit('ftp://'), URIauthorityLoose, FTPorFILEpath, opt(FTPtype), opt(URIfragment));
  const FILEurl = seq(lit('file://'), opt(URIhostLoose), FTPorFILEpath, opt(URIfragment));

  const URLpattern = alt(HTTPurl, FTPurl, FILEurl);

  const ANY_ASCII = set(ascii(() => true));
  const BACKSLASH = lit('\\');
  const EMAILquotedString = seq(
    lit('"'),
    star(alt(set(ascii((c) => (c >= 1 && c <= 8) || c === 0x0b || c === 0x0c || (c >= 0x0e && c <= 0x7e && c !== 0x22 && c !== 0x5c))), seq(BACKSLASH, ANY_ASCII))),
    lit('"'),
  );
  // JFlex reads `+-/` in `[A-Za-z0-9!#$%&'*+-/=?\^_`{|}~]` as the range + , - . /
  const EMAILatomText = set(ascii((c) => isAlnum(c) || charCodes('!#$%&\'*=?^_`{|}~')(c) || (c >= 0x2b && c <= 0x2f)));
  const EMAILlabel = alt(plus(EMAILatomText), EMAILquotedString);
  const EMAILlocalPart = seq(EMAILlabel, star(seq(DOT, EMAILlabel)));
  const EMAILdomainLiteralText = alt(
    set(ascii((c) => (c >= 1 && c <= 8) || c === 0x0b || c === 0x0c || (c >= 0x0e && c <= 0x5a) || (c >= 0x5e && c <= 0x7f))),
    seq(BACKSLASH, ANY_ASCII),
  );
  const EMAILbracketedHost = seq(lit('['), alt(star(EMAILdomainLiteralText), IPv4Address, seq(lit('ipv6:'), IPv6Address)), lit(']'));
  const EMAILpattern = seq(EMAILlocalPart, lit('@'), alt(DomainNameStrict, EMAILbracketedHost));
  return {
    URLpattern,
    URIhostStrict,
    URIhostStrict_NoTLDprefix,
    URIhostStrict_TLDprefix_1CharSuffix,
    URIhostStrict_TLDprefix_2CharSuffix,
    EMAILpattern,
  };
}

/** `[-\w]` and its complement, the trailing contexts of the scheme-less host rules. */
const isDashOrWord = (f: number): boolean => {
  const a = (f >>> ASCII_SHIFT) & 0xff;
  if (a === 0) return (f & F_WORD) !== 0;
  const c = a - 1;
  return isAlnum(c) || c === 0x5f || c === 0x2d;
};

// Rule ids, in grammar order (= priority); the standard rules follow. The host rules come in
// pairs per TLD bucket, in this order, so that at the end of the text `example.com` (bucket 0,
// plain) wins its tie with `example.co` + `m` (bucket 1 + context): LUCENE-8278.
const R_URL = 0;
const R_HOST_BEFORE_NON_WORD = 1;
const R_HOST_BEFORE_WORD_0 = 2;
const R_HOST_AT_END_0 = 3;
const R_HOST_BEFORE_WORD_1 = 4;
const R_HOST_AT_END_1 = 5;
const R_HOST_BEFORE_WORD_2 = 6;
const R_HOST_AT_END_2 = 7;
const R_MAILTO = 8;
const R_EMAIL = 9;
const R_STANDARD = 10;

function rules(g: Grammar, avoidBadUrl: boolean): Pattern[] {
  const { URLpattern, URIhostStrict, URIhostStrict_NoTLDprefix, URIhostStrict_TLDprefix_1CharSuffix, URIhostStrict_TLDprefix_2CharSuffix, EMAILpattern } = g;
  const never = set(() => false); // keeps rule ids the same in both states
  const badUrlRules = [URIhostStrict_NoTLDprefix, URIhostStrict_TLDprefix_1CharSuffix, URIhostStrict_TLDprefix_2CharSuffix]
    .flatMap((host) => (avoidBadUrl ? [never, never] : [seq(host, set(isDashOrWord)), host]));
  return [
    URLpattern,
    seq(URIhostStrict, set((f) => !isDashOrWord(f))),
    ...badUrlRules,
    // LUCENE-3880: "mailto" is a word of its own before ":" and an e-mail address.
    seq(lit('mailto'), lit(':'), EMAILpattern),
    EMAILpattern,
    ...GRAMMAR_ORDER.map((type) => RULES[type]),
  ];
}

const MAX_CLASSES = 192;

interface Scanner {
  readonly initial: LazyDfa;
  readonly avoidBadUrl: LazyDfa;
  readonly classes: CharClasses;
  readonly memos: Map<LazyDfa, ScanMemo>;
}

let compiled: Scanner | null = null;

/**
 * The two states' automata, compiled on first use: their NFAs have ~370,000 states (the TLD trie
 * repeats in several rules), ~0.3–0.6 s and ~35 MB per thread, which every search and build worker
 * would pay at start-up if this ran at module load, whether or not any index used the tokenizer.
 */
function scanner(): Scanner {
  if (compiled !== null) return compiled;
  const g = grammar();
  const initial = compileLazyDfa(rules(g, false), MAX_CLASSES);
  const avoidBadUrl = compileLazyDfa(rules(g, true), MAX_CLASSES);
  compiled = {
    initial,
    avoidBadUrl,
    classes: new CharClasses(classKey, [initial, avoidBadUrl]),
    memos: new Map<LazyDfa, ScanMemo>([[initial, new ScanMemo()], [avoidBadUrl, new ScanMemo()]]),
  };
  return compiled;
}

// ---- scanner ----------------------------------------------------------------------------------

const match: LongestMatch = { end: -1, rule: -1, lastWidth: 0 };

const isAsciiAlnum = (c: number): boolean => c < 0x80 && isAlnum(c);
const isAsciiSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * Finds the next token starting at or after `from`; writes `[start, end, type]` (type an index into
 * UAX_TOKEN_TYPES) to `out`. Every call starts in the initial state: each token returns to it.
 */
export function nextUaxUrlEmailToken(text: string, from: number, out: Int32Array, maxTokenLength: number = DEFAULT_MAX_TOKEN_LENGTH): boolean {
  const length = text.length;
  const { initial, avoidBadUrl, classes, memos } = scanner();
  let dfa = initial;
  let p = from;
  while (p < length) {
    const first = text.charCodeAt(p);
    if (isAsciiSpace(first)) {
      p++;
      continue;
    }
    // Fast path: a run of ASCII letters and digits ended by a space or the end of the text is a
    // word or a number under every rule (hosts need a dot, e-mails an @, URLs a scheme or a host).
    if (isAsciiAlnum(first)) {
      let i = p + 1;
      let letters = first > 0x39;
      const runLimit = Math.min(length, p + maxTokenLength + 1);
      let c = 0;
      while (i < runLimit && isAsciiAlnum((c = text.charCodeAt(i)))) {
        if (c > 0x39) letters = true;
        i++;
      }
      if ((i === length || isAsciiSpace(c)) && i - p <= maxTokenLength) {
        out[0] = p;
        out[1] = i;
        out[2] = letters ? ALPHANUM : NUM;
        return true;
      }
    }
    walkLongest(dfa, classes, memos.get(dfa)!, text, p, Math.min(length, p + maxTokenLength), maxTokenLength, match);
    if (match.end > p) {
      let end = match.end;
      let type: number;
      switch (match.rule) {
        case R_URL:
        case R_HOST_AT_END_0:
        case R_HOST_AT_END_1:
        case R_HOST_AT_END_2:
          type = URL;
          break;
        case R_HOST_BEFORE_NON_WORD:
          type = URL;
          end -= match.lastWidth;
          break;
        case R_HOST_BEFORE_WORD_0:
        case R_HOST_BEFORE_WORD_1:
        case R_HOST_BEFORE_WORD_2:
          dfa = avoidBadUrl; // rescan from p without the host rules
          continue;
        case R_MAILTO:
          type = ALPHANUM;
          end = p + 6;
          break;
        case R_EMAIL:
          type = EMAIL;
          break;
        default:
          type = GRAMMAR_ORDER[match.rule - R_STANDARD];
      }
      out[0] = p;
      out[1] = end;
      out[2] = type;
      return true;
    }
    // No rule matched: skip one code point, staying in the current lexical state.
    p += codePointWidth(text, p);
  }
  return false;
}

/** Lucene `UAX29URLEmailTokenizer` with `setMaxTokenLength(maxTokenLength)`. */
export function uaxUrlEmailTokenizer(maxTokenLength: number = DEFAULT_MAX_TOKEN_LENGTH): Tokenizer {
  if (!Number.isInteger(maxTokenLength) || maxTokenLength < 1 || maxTokenLength > MAX_TOKEN_LENGTH_LIMIT) {
    throw new RangeError(`maxTokenLength must be between 1 and ${MAX_TOKEN_LENGTH_LIMIT}, got ${maxTokenLength}`);
  }
  return {
    name: 'uax_url_email',
    next: (text, previousEnd, out) => nextUaxUrlEmailToken(text, previousEnd < 0 ? 0 : previousEnd, out, maxTokenLength),
  };
}
