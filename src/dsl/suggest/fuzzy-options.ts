/**
 * The completion suggester's `fuzzy` member (ES FuzzyOptions): `true` for the defaults, or an
 * object of `fuzziness` (AUTO), `transpositions` (true), `min_length` (3), `prefix_length` (1),
 * `unicode_aware` (false), `max_determinized_states`. Defaults are FuzzyCompletionQuery's.
 */
import { IllegalArgumentError, NumberFormatError, ParseError, XContentParseError } from '../../errors/index.js';
import { tokenName } from '../json-body.js';
import { booleanValue, forEachEntry, intValue, isObject } from '../parse-helpers.js';
import { objectField, unknownField } from '../object-parser.js';
import type { CompletionFuzzyOptions } from './suggest-nodes.js';

export const DEFAULT_FUZZY: CompletionFuzzyOptions = { editDistance: 1, transpositions: true, minLength: 3, prefixLength: 1, unicodeAware: false };

const FIELDS = ['fuzziness', 'transpositions', 'min_length', 'prefix_length', 'unicode_aware', 'max_determinized_states'];

/** ES Fuzziness.asDistance() without a text: AUTO counts an average term of 5 characters. */
const AUTO_TERM_LENGTH = 5;

/**
 * Fuzziness.parse + asDistance(): "AUTO" (any case), "AUTO:low,high", or a number whose integer
 * part, capped at 2, is the distance ("3" is 2 edits; a negative one fails FuzzyOptions' check).
 */
function editDistance(v: unknown): number {
  if (typeof v !== 'string' && typeof v !== 'number') throw new IllegalArgumentError(`Can't parse fuzziness on token: [${tokenName(v)}]`);
  const text = String(v).toUpperCase();
  let distance: number;
  if (text === 'AUTO' || text.startsWith('AUTO:')) {
    let low = 3;
    let high = 6;
    if (text !== 'AUTO') {
      const limits = text.slice(5).split(',');
      if (limits.length !== 2) throw new ParseError('failed to find low and high distance values');
      if (!limits.every((l) => /^[+-]?\d+$/.test(l))) throw new ParseError(`failed to parse [${String(v)}] as a "auto:int,int"`);
      [low, high] = limits.map(Number);
      if (low < 0 || high < 0 || low > high) {
        throw new IllegalArgumentError('fuzziness wrongly configured, must be: lowDistance > 0, highDistance > 0 and lowDistance <= highDistance ');
      }
    }
    distance = AUTO_TERM_LENGTH < low ? 0 : AUTO_TERM_LENGTH < high ? 1 : 2;
  } else {
    // Float.parseFloat of the upper-cased text (Fuzziness keeps it so).
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?$/.test(text.trim())) throw new NumberFormatError(text);
    distance = Math.min(2, Math.trunc(Number(text.trim().replace(/[FD]$/, ''))));
  }
  if (distance < 0 || distance > 2) throw new IllegalArgumentError('fuzziness must be between 0 and 2');
  return distance;
}

function nonNegative(v: unknown, what: string): number {
  const n = intValue(v);
  if (n < 0) throw new IllegalArgumentError(`${what} must not be negative`);
  return n;
}

/** `fuzzy`: a boolean (true = defaults, false = none) or an options object. */
export function parseFuzzyOptions(v: unknown): CompletionFuzzyOptions | null {
  if (typeof v === 'boolean') return v ? DEFAULT_FUZZY : null;
  if (!isObject(v)) throw new XContentParseError(`[fuzzy] Expected START_OBJECT but was: ${tokenName(v)}`);
  const o = { ...DEFAULT_FUZZY };
  forEachEntry(v, (k, x) => {
    switch (k) {
      case 'fuzziness': o.editDistance = objectField('fuzzy', k, () => editDistance(x)); break;
      case 'transpositions': o.transpositions = objectField('fuzzy', k, () => booleanValue(x)); break;
      case 'min_length': o.minLength = objectField('fuzzy', k, () => nonNegative(x, 'fuzzyMinLength')); break;
      case 'prefix_length': o.prefixLength = objectField('fuzzy', k, () => nonNegative(x, 'fuzzyPrefixLength')); break;
      case 'unicode_aware': o.unicodeAware = objectField('fuzzy', k, () => booleanValue(x)); break;
      // Bounds automaton determinization in Lucene; candidates here are found without an automaton.
      case 'max_determinized_states': objectField('fuzzy', k, () => nonNegative(x, 'maxDeterminizedStates')); break;
      default: throw unknownField('fuzzy', k, FIELDS);
    }
  });
  return o;
}
