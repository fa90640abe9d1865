/**
 * The body of a `completion` suggestion (ES CompletionSuggestionBuilder's ObjectParser, named
 * "completion"): `field` (required), `size` (> 0, default 5), `shard_size`, `skip_duplicates`,
 * `analyzer`, `fuzzy`, `regex` options, `contexts`.
 */
import { IllegalArgumentError, ParseError, XContentParseError } from '../../errors/index.js';
import { tokenName } from '../json-body.js';
import { booleanValue, forEachEntry, intValue, isObject, readString } from '../parse-helpers.js';
import { parseFuzzyOptions } from './fuzzy-options.js';
import { objectField, unknownField } from '../object-parser.js';
import { DEFAULT_MAX_DETERMINIZED_STATES, REGEXP_FLAGS, resolveRegexpFlags } from '../../common/pattern/index.js';
import { DEFAULT_SUGGEST_SIZE, type CompletionRegexOptions, type CompletionSuggestion } from './suggest-nodes.js';

const FIELDS = ['field', 'analyzer', 'size', 'shard_size', 'skip_duplicates', 'fuzzy', 'regex', 'contexts', 'context'];

export { REGEXP_FLAGS };

/** RegexpFlag.resolveValue: names joined by `|`, any case. */
function regexFlags(v: unknown): number {
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v !== 'string') throw new ParseError('regex flags supports string or number');
  return resolveRegexpFlags(v);
}

function parseRegexOptions(v: unknown): CompletionRegexOptions {
  if (!isObject(v)) throw new XContentParseError(`[regex] Expected START_OBJECT but was: ${tokenName(v)}`);
  let flags: number = REGEXP_FLAGS.ALL;
  let maxDeterminizedStates = DEFAULT_MAX_DETERMINIZED_STATES;
  forEachEntry(v, (k, x) => {
    if (k === 'flags') flags = objectField('regex', k, () => regexFlags(x));
    else if (k === 'max_determinized_states') {
      maxDeterminizedStates = objectField('regex', k, () => {
        const n = intValue(x);
        if (n < 0) throw new IllegalArgumentError('maxDeterminizedStates must not be negative');
        return n;
      });
    } else throw unknownField('regex', k, ['flags', 'max_determinized_states']);
  });
  return { flags, maxDeterminizedStates };
}

/** The suggestion-level members the completion body is combined with. */
export interface SuggestionTexts {
  readonly text: string | null;
  readonly prefix: string | null;
  readonly regex: string | null;
}

export function parseCompletionSuggestion(name: string, body: unknown, texts: SuggestionTexts): CompletionSuggestion {
  if (!isObject(body)) throw new XContentParseError(`[completion] Expected START_OBJECT but was: ${tokenName(body)}`);
  const s = {
    kind: 'completion' as const, name, field: null as string | null, ...texts, analyzer: null as string | null,
    size: DEFAULT_SUGGEST_SIZE, skipDuplicates: false, fuzzy: null as CompletionSuggestion['fuzzy'],
    regexOptions: null as CompletionRegexOptions | null, contexts: false,
  };
  forEachEntry(body, (k, v) => {
    switch (k) {
      case 'field': s.field = readString('completion', k, v); break;
      case 'analyzer': s.analyzer = readString('completion', k, v); break;
      case 'size':
        s.size = objectField('completion', k, () => {
          const n = intValue(v);
          if (n <= 0) throw new IllegalArgumentError('size must be positive');
          return n;
        });
        break;
      // Each shard here returns what an exact reduce needs, so a larger shard_size changes nothing.
      case 'shard_size': objectField('completion', k, () => intValue(v)); break;
      case 'skip_duplicates': s.skipDuplicates = objectField('completion', k, () => booleanValue(v)); break;
      case 'fuzzy': s.fuzzy = objectField('completion', k, () => parseFuzzyOptions(v)); break;
      case 'regex': s.regexOptions = objectField('completion', k, () => parseRegexOptions(v)); break;
      case 'contexts': case 'context':
        if (!isObject(v)) throw new XContentParseError(`[completion] ${k} doesn't support values of type: ${tokenName(v)}`);
        s.contexts = true;
        break;
      default: throw unknownField('completion', k, FIELDS.filter((f) => f !== 'context'));
    }
  });
  if (s.field === null) throw new ParseError('the required field option [field] is missing');
  return { ...s, field: s.field };
}
