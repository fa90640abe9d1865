/**
 * Lucene's WordDelimiterGraphFilter (ES `word_delimiter_graph`): splits a token into subwords at
 * non-alphanumeric chars, lower→upper case changes and letter↔digit changes ("Neil's-XL500" →
 * Neil, XL, 500; a trailing possessive 's is dropped), optionally adding catenations of adjacent
 * parts and the original, as a graph: every emitted token spans its parts' positions, ordered by
 * start position then longest first. Offsets are the parts' own (`adjust_offsets`) unless a
 * previous filter changed the token's length.
 */
import type { StreamFilter, Token } from './token-graph.js';

export interface WordDelimiterOptions {
  readonly generateWordParts: boolean;
  readonly generateNumberParts: boolean;
  readonly catenateWords: boolean;
  readonly catenateNumbers: boolean;
  readonly catenateAll: boolean;
  readonly splitOnCaseChange: boolean;
  readonly splitOnNumerics: boolean;
  readonly preserveOriginal: boolean;
  readonly stemEnglishPossessive: boolean;
  readonly adjustOffsets: boolean;
  readonly ignoreKeywords: boolean;
  readonly protectedWords: ReadonlySet<string>;
}

const LOWER = 1;
const UPPER = 2;
const DIGIT = 4;
const DELIM = 8;
const ALPHA = LOWER | UPPER;

const RE_LOWER = /\p{Ll}/u;
const RE_UPPER = /\p{Lu}/u;
const RE_OTHER_ALPHA = /[\p{Lt}\p{Lm}\p{Lo}\p{M}]/u;
const RE_DIGIT = /[\p{Nd}\p{Nl}\p{No}]/u;

/** Lucene WordDelimiterIterator.getType (Character.getType classes). */
function charType(ch: string): number {
  const c = ch.charCodeAt(0);
  if (c < 0x80) {
    if (c >= 0x61 && c <= 0x7a) return LOWER;
    if (c >= 0x41 && c <= 0x5a) return UPPER;
    if (c >= 0x30 && c <= 0x39) return DIGIT;
    return DELIM;
  }
  if (RE_LOWER.test(ch)) return LOWER;
  if (RE_UPPER.test(ch)) return UPPER;
  if (RE_OTHER_ALPHA.test(ch)) return ALPHA;
  if (RE_DIGIT.test(ch)) return DIGIT;
  return DELIM;
}

/** WordDelimiterIterator.isBreak. */
function isBreak(last: number, type: number, o: WordDelimiterOptions): boolean {
  if ((type & last) !== 0) return false;
  if (!o.splitOnCaseChange && (last & ALPHA) !== 0 && (type & ALPHA) !== 0) return false;
  if ((last & UPPER) !== 0 && (type & ALPHA) !== 0) return false;
  if (!o.splitOnNumerics && (((last & ALPHA) !== 0 && (type & DIGIT) !== 0) || ((last & DIGIT) !== 0 && (type & ALPHA) !== 0))) return false;
  return true;
}

interface Part {
  readonly start: number;
  readonly end: number;
  readonly number: boolean;
}

/** The subwords of `term` as [start, end) ranges (code units). */
function subwords(term: string, o: WordDelimiterOptions): Part[] {
  const chars = [...term];
  const starts: number[] = [];
  let at = 0;
  for (const ch of chars) {
    starts.push(at);
    at += ch.length;
  }
  starts.push(at);
  const types = chars.map(charType);
  const parts: Part[] = [];
  let i = 0;
  const n = chars.length;
  while (i < n) {
    if (types[i] === DELIM) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && types[j] !== DELIM && !isBreak(types[j - 1], types[j], o)) j++;
    parts.push({ start: starts[i], end: starts[j], number: (types[i] & DIGIT) !== 0 });
    // Lucene drops an English possessive after a word: `'s` then the end or a delimiter.
    if (o.stemEnglishPossessive && j + 1 < n && (types[j - 1] & ALPHA) !== 0 && chars[j] === "'" && (chars[j + 1] === 's' || chars[j + 1] === 'S')
      && (j + 2 === n || types[j + 2] === DELIM)) {
      j += 2;
    }
    i = j;
  }
  return parts;
}

interface Out {
  readonly term: string;
  readonly start: number;
  readonly end: number;
  readonly from: number;
  readonly to: number;
}

export function wordDelimiterGraphFilter(o: WordDelimiterOptions): StreamFilter {
  return (stream) => {
    const out: Token[] = [];
    let carry = 0;
    for (const t of stream.tokens) {
      if ((o.ignoreKeywords && t.keyword) || o.protectedWords.has(t.term)) {
        out.push(carry === 0 ? t : { ...t, posInc: t.posInc + carry });
        carry = 0;
        continue;
      }
      const parts = subwords(t.term, o);
      if (parts.length === 1 && parts[0].start === 0 && parts[0].end === t.term.length) {
        out.push(carry === 0 ? t : { ...t, posInc: t.posInc + carry });
        carry = 0;
        continue;
      }
      const adjust = o.adjustOffsets && t.end - t.start === t.term.length;
      const offsets = (p: { start: number; end: number }) => (adjust ? { start: t.start + p.start, end: t.start + p.end } : { start: t.start, end: t.end });
      const emitted: Out[] = [];
      // The original first: among outputs spanning the same positions, Lucene's buffer keeps insertion order.
      if (o.preserveOriginal) emitted.push({ term: t.term, start: t.start, end: t.end, from: 0, to: Math.max(1, parts.length) });
      const wanted = (p: Part) => (p.number ? o.generateNumberParts : o.generateWordParts);
      parts.forEach((p, k) => {
        if (wanted(p)) emitted.push({ term: t.term.slice(p.start, p.end), ...offsets(p), from: k, to: k + 1 });
      });
      // Catenations: runs of adjacent word parts, number parts, or all parts.
      const catenate = (accept: (p: Part) => boolean) => {
        let k = 0;
        while (k < parts.length) {
          if (!accept(parts[k])) {
            k++;
            continue;
          }
          let m = k + 1;
          while (m < parts.length && accept(parts[m])) m++;
          if (m - k > 1) {
            const term = parts.slice(k, m).map((p) => t.term.slice(p.start, p.end)).join('');
            emitted.push({ term, ...offsets({ start: parts[k].start, end: parts[m - 1].end }), from: k, to: m });
          }
          k = m;
        }
      };
      if (o.catenateAll) catenate(() => true);
      else {
        if (o.catenateWords) catenate((p) => !p.number);
        if (o.catenateNumbers) catenate((p) => p.number);
      }
      if (emitted.length === 0) {
        carry += t.posInc;
        continue;
      }
      // Positions only count parts that are covered by some output (gaps collapse).
      const used = new Array<boolean>(Math.max(1, parts.length)).fill(false);
      for (const e of emitted) for (let k = e.from; k < e.to; k++) used[k] = true;
      const node = new Array<number>(used.length + 1).fill(0);
      for (let k = 0; k < used.length; k++) node[k + 1] = node[k] + (used[k] ? 1 : 0);
      emitted.sort((a, b) => a.from - b.from || b.to - a.to);
      let last = 0;
      emitted.forEach((e, k) => {
        const from = node[e.from];
        out.push({
          term: e.term, start: e.start, end: e.end, type: t.type, keyword: t.keyword,
          posInc: k === 0 ? t.posInc + carry : from - last, posLen: Math.max(1, node[e.to] - from),
        });
        last = from;
      });
      carry = 0;
    }
    return { tokens: out, finalIncrement: stream.finalIncrement + carry };
  };
}
