/**
 * java.util.regex's `\p{…}` character properties as code point ranges: the POSIX classes (ASCII,
 * as Java has them without UNICODE_CHARACTER_CLASS), the `java*` methods, general categories
 * (`L`, `Lu`, `IsL`, `gc=Lu`, `general_category=Lu`), scripts (`IsLatin`, `sc=Latin`,
 * `script=Latin`), blocks are not offered. Unicode sets come from the JS engine's own Unicode
 * tables (a fixed property test per code point, computed once per property and cached), so no
 * table is shipped here.
 */
import { normalizeRanges } from './pattern-node.js';

const POSIX: Readonly<Record<string, readonly number[]>> = {
  Lower: [0x61, 0x7a],
  Upper: [0x41, 0x5a],
  ASCII: [0x00, 0x7f],
  Alpha: [0x41, 0x5a, 0x61, 0x7a],
  Digit: [0x30, 0x39],
  Alnum: [0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a],
  Punct: [0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e],
  Graph: [0x21, 0x7e],
  Print: [0x20, 0x7e],
  Blank: [0x09, 0x09, 0x20, 0x20],
  Cntrl: [0x00, 0x1f, 0x7f, 0x7f],
  XDigit: [0x30, 0x39, 0x41, 0x46, 0x61, 0x66],
  Space: [0x09, 0x0d, 0x20, 0x20],
};

/** JS property expressions for Java's `java*` classes and binary properties. */
const DERIVED: Readonly<Record<string, string>> = {
  javaLowerCase: '\\p{Lowercase}', javaUpperCase: '\\p{Uppercase}', javaWhitespace: '[\\t-\\r\\x1c-\\x1f\\p{Zs}\\p{Zl}\\p{Zp}]',
  javaLetter: '\\p{L}', javaDigit: '\\p{Nd}', javaLetterOrDigit: '[\\p{L}\\p{Nd}]', javaAlphabetic: '\\p{Alphabetic}',
  javaSpaceChar: '[\\p{Zs}\\p{Zl}\\p{Zp}]',
  IsAlphabetic: '\\p{Alphabetic}', IsLetter: '\\p{L}', IsDigit: '\\p{Nd}', IsLowercase: '\\p{Lowercase}', IsUppercase: '\\p{Uppercase}',
  IsWhite_Space: '\\p{White_Space}', IsWhiteSpace: '\\p{White_Space}', IsPunctuation: '\\p{P}', IsControl: '\\p{Cc}',
  IsIdeographic: '\\p{Ideographic}',
};

const GENERAL_CATEGORIES = new Set([
  'L', 'Lu', 'Ll', 'Lt', 'Lm', 'Lo', 'M', 'Mn', 'Mc', 'Me', 'N', 'Nd', 'Nl', 'No', 'P', 'Pc', 'Pd', 'Ps', 'Pe', 'Pi', 'Pf', 'Po',
  'S', 'Sm', 'Sc', 'Sk', 'So', 'Z', 'Zs', 'Zl', 'Zp', 'C', 'Cc', 'Cf', 'Cs', 'Co', 'Cn', 'LC',
]);

const cache = new Map<string, readonly number[]>();

/** The code points matching a JS Unicode property test, as ranges. */
function rangesOf(expression: string): readonly number[] | null {
  let re: RegExp;
  try {
    re = new RegExp(`^${expression}$`, 'u');
  } catch {
    return null; // not a property name the engine knows
  }
  const pairs: number[] = [];
  let start = -1;
  for (let cp = 0; cp <= 0x110000; cp++) {
    const inside = cp < 0x110000 && !(cp >= 0xd800 && cp < 0xe000 && expression !== '\\p{Cs}') && re.test(String.fromCodePoint(cp));
    if (inside && start < 0) start = cp;
    else if (!inside && start >= 0) {
      pairs.push(start, cp - 1);
      start = -1;
    }
  }
  return normalizeRanges(pairs);
}

/** The ranges of `\p{name}`, or null when Java would not know the name. */
export function unicodePropertyRanges(name: string): readonly number[] | null {
  const posix = POSIX[name];
  if (posix !== undefined) return normalizeRanges([...posix]);
  let known: readonly number[] | null | undefined = cache.get(name);
  if (known !== undefined) return known;
  known = null;
  // Only names of letters, digits, `_` and one `=` reach the engine's property syntax.
  if (/^[A-Za-z_]+(=[A-Za-z_]+)?$/.test(name)) {
    const [key, value] = name.includes('=') ? name.split('=') : [null, name];
    const derived = DERIVED[name];
    if (derived !== undefined) known = rangesOf(derived);
    else if (key === 'gc' || key === 'general_category') known = GENERAL_CATEGORIES.has(value) ? rangesOf(`\\p{gc=${value}}`) : null;
    else if (key === 'sc' || key === 'script') known = rangesOf(`\\p{sc=${value}}`);
    else if (key === null && GENERAL_CATEGORIES.has(value)) known = rangesOf(`\\p{gc=${value}}`);
    else if (key === null && value.startsWith('Is') && GENERAL_CATEGORIES.has(value.slice(2))) known = rangesOf(`\\p{gc=${value.slice(2)}}`);
    else if (key === null && value.startsWith('Is')) known = rangesOf(`\\p{sc=${value.slice(2)}}`);
  }
  // Only names the engine knows are kept: the set is finite, whatever clients send.
  if (known !== null) cache.set(name, known);
  return known;
}
