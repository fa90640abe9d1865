/**
 * The Snowball English stemmer ("Porter2"), as Lucene's SnowballFilter runs it for ES's
 * `snowball` filter (language English) and `stemmer` with `porter2`: the algorithm of
 * snowballstem.org's english.sbl step by step — exceptions, prelude (y → Y), regions R1/R2
 * (with the gener/commun/arsen prefixes), steps 1a–5 and the postlude.
 */
import type { TokenFilter } from './token-stream.js';

const EXCEPTION1: ReadonlyMap<string, string> = new Map([
  ['skis', 'ski'], ['skies', 'sky'], ['dying', 'die'], ['lying', 'lie'], ['tying', 'tie'], ['idly', 'idl'],
  ['gently', 'gentl'], ['ugly', 'ugli'], ['early', 'earli'], ['only', 'onli'], ['singly', 'singl'],
  ['sky', 'sky'], ['news', 'news'], ['howe', 'howe'], ['atlas', 'atlas'], ['cosmos', 'cosmos'], ['bias', 'bias'],
  ['andes', 'andes'],
]);
const EXCEPTION2 = new Set(['inning', 'outing', 'canning', 'herring', 'earring', 'proceed', 'exceed', 'succeed']);

const isVowel = (c: string | undefined): boolean => c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u' || c === 'y';
const VALID_LI = new Set(['c', 'd', 'e', 'g', 'h', 'k', 'm', 'n', 'r', 't']);

/** Position after the first non-vowel that follows a vowel, searching from `from`; w.length if none. */
function regionAfter(w: string, from: number): number {
  let i = from;
  while (i < w.length && !isVowel(w[i])) i++;
  while (i < w.length && isVowel(w[i])) i++;
  return i < w.length ? i + 1 : w.length;
}

/** A short syllable ends `w` at `end` (exclusive). */
function endsShortSyllable(w: string, end: number): boolean {
  if (end >= 3) {
    const c = w[end - 1];
    if (!isVowel(c) && c !== 'w' && c !== 'x' && c !== 'Y' && isVowel(w[end - 2]) && !isVowel(w[end - 3])) return true;
  }
  return end === 2 && isVowel(w[0]) && !isVowel(w[1]);
}

/** The longest of `suffixes` that `w` ends with, or null. */
function longestSuffix(w: string, suffixes: readonly string[]): string | null {
  let best: string | null = null;
  for (const s of suffixes) if (w.endsWith(s) && (best === null || s.length > best.length)) best = s;
  return best;
}

const STEP2: ReadonlyMap<string, string> = new Map([
  ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['abli', 'able'], ['entli', 'ent'], ['izer', 'ize'],
  ['ization', 'ize'], ['ational', 'ate'], ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'], ['aliti', 'al'],
  ['alli', 'al'], ['fulness', 'ful'], ['ousli', 'ous'], ['ousness', 'ous'], ['iveness', 'ive'], ['iviti', 'ive'],
  ['biliti', 'ble'], ['bli', 'ble'], ['ogi', 'og'], ['fulli', 'ful'], ['lessli', 'less'], ['li', ''],
]);
const STEP2_KEYS = [...STEP2.keys()];
const STEP3: ReadonlyMap<string, string> = new Map([
  ['tional', 'tion'], ['ational', 'ate'], ['alize', 'al'], ['icate', 'ic'], ['iciti', 'ic'], ['ical', 'ic'],
  ['ful', ''], ['ness', ''], ['ative', ''],
]);
const STEP3_KEYS = [...STEP3.keys()];
const STEP4 = ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize', 'ion'];
const STEP1B = ['eed', 'eedly', 'ed', 'edly', 'ing', 'ingly'];
const DOUBLES = new Set(['bb', 'dd', 'ff', 'gg', 'mm', 'nn', 'pp', 'rr', 'tt']);

export function englishSnowballStem(word: string): string {
  const exception = EXCEPTION1.get(word);
  if (exception !== undefined) return exception;
  if (word.length <= 2) return word;
  // prelude
  let w = word.startsWith("'") ? word.slice(1) : word;
  if (w.startsWith('y')) w = 'Y' + w.slice(1);
  for (let i = 1; i < w.length; i++) if (w[i] === 'y' && isVowel(w[i - 1])) w = w.slice(0, i) + 'Y' + w.slice(i + 1);
  // regions
  let p1: number;
  const prefix = ['gener', 'commun', 'arsen'].find((p) => w.startsWith(p));
  p1 = prefix !== undefined ? prefix.length : regionAfter(w, 0);
  const p2 = regionAfter(w, p1);
  p1 = Math.min(p1, w.length);
  const inR1 = (suffixLength: number) => w.length - suffixLength >= p1;
  const inR2 = (suffixLength: number) => w.length - suffixLength >= p2;

  // Step 1a
  const apostrophe = longestSuffix(w, ["'", "'s", "'s'"]);
  if (apostrophe !== null) w = w.slice(0, -apostrophe.length);
  const s1a = longestSuffix(w, ['sses', 'ied', 'ies', 's', 'us', 'ss']);
  if (s1a === 'sses') w = w.slice(0, -2);
  else if (s1a === 'ied' || s1a === 'ies') w = w.slice(0, -3) + (w.length - 3 > 1 ? 'i' : 'ie');
  else if (s1a === 's') {
    const stem = w.slice(0, -2); // the letter before the s is skipped
    for (let i = 0; i < stem.length; i++) {
      if (isVowel(stem[i])) {
        w = w.slice(0, -1);
        break;
      }
    }
  }
  if (EXCEPTION2.has(w)) return postlude(w);

  // Step 1b
  const s1b = longestSuffix(w, STEP1B);
  if (s1b === 'eed' || s1b === 'eedly') {
    if (inR1(s1b.length)) w = w.slice(0, -s1b.length) + 'ee';
  } else if (s1b !== null) {
    const stem = w.slice(0, -s1b.length);
    if ([...stem].some((c) => isVowel(c))) {
      w = stem;
      const end = w.slice(-2);
      if (end === 'at' || end === 'bl' || end === 'iz') w += 'e';
      else if (DOUBLES.has(end)) w = w.slice(0, -1);
      else if (w.length === p1 && endsShortSyllable(w, w.length)) w += 'e';
    }
  }

  // Step 1c
  if (w.length > 2 && (w.endsWith('y') || w.endsWith('Y')) && !isVowel(w[w.length - 2])) w = w.slice(0, -1) + 'i';

  // Step 2
  const s2 = longestSuffix(w, STEP2_KEYS);
  if (s2 !== null && inR1(s2.length)) {
    const before = w[w.length - s2.length - 1];
    if (s2 === 'ogi') {
      if (before === 'l') w = w.slice(0, -3) + 'og';
    } else if (s2 === 'li') {
      if (before !== undefined && VALID_LI.has(before)) w = w.slice(0, -2);
    } else {
      w = w.slice(0, -s2.length) + STEP2.get(s2)!;
    }
  }

  // Step 3
  const s3 = longestSuffix(w, STEP3_KEYS);
  if (s3 !== null && inR1(s3.length)) {
    if (s3 === 'ative') {
      if (inR2(s3.length)) w = w.slice(0, -5);
    } else {
      w = w.slice(0, -s3.length) + STEP3.get(s3)!;
    }
  }

  // Step 4
  const s4 = longestSuffix(w, STEP4);
  if (s4 !== null && inR2(s4.length)) {
    if (s4 === 'ion') {
      const before = w[w.length - 4];
      if (before === 's' || before === 't') w = w.slice(0, -3);
    } else {
      w = w.slice(0, -s4.length);
    }
  }

  // Step 5
  if (w.endsWith('e')) {
    if (inR2(1) || (inR1(1) && !endsShortSyllable(w, w.length - 1))) w = w.slice(0, -1);
  } else if (w.endsWith('l')) {
    if (inR2(1) && w[w.length - 2] === 'l') w = w.slice(0, -1);
  }
  return postlude(w);
}

function postlude(w: string): string {
  return w.includes('Y') ? w.replaceAll('Y', 'y') : w;
}

export const englishSnowballFilter: TokenFilter = englishSnowballStem;
