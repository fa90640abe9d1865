/**
 * Compiling user patterns to DFAs with ES's limits, and a small cache: the same pattern arrives
 * again and again (a role's index patterns on every request, a query per shard and per search).
 * A pattern that failed to compile is cached with its error, so repeating a hostile pattern costs
 * a map lookup.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { DEFAULT_MAX_DETERMINIZED_STATES, toDfa, type Dfa } from './automaton.js';
import { REGEXP_FLAGS, parseRegexp } from './regexp-syntax.js';
import { parseWildcard } from './wildcard-syntax.js';
import { literalNode } from './pattern-node.js';

/** ES's `index.max_regex_length` default. */
export const DEFAULT_MAX_REGEX_LENGTH = 1000;
const CACHE_SIZE = 1000;

export interface CompileOptions {
  /** Lucene RegExp syntax flags (REGEXP_FLAGS); default ALL. Regexps only. */
  readonly flags?: number;
  readonly caseInsensitive?: boolean;
  /** Default 10,000, ES's. */
  readonly maxDeterminizedStates?: number;
  /** Accept every string that starts with a match (the pattern followed by `.*`). Regexps only. */
  readonly matchPrefix?: boolean;
}

const cache = new Map<string, Dfa | Error>();

function cached(key: string, compile: () => Dfa): Dfa {
  let entry = cache.get(key);
  if (entry === undefined) {
    try {
      entry = compile();
    } catch (e) {
      if (!(e instanceof Error)) throw e;
      entry = e;
    }
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(key, entry);
  }
  if (entry instanceof Error) throw entry;
  return entry;
}

/**
 * ES's `index.max_regex_length` check, before anything is parsed: an illegal_argument_exception
 * worded as RegexpQueryBuilder (`usedIn` "Regexp Query request") or QueryStringQueryParser
 * ("[query_string]") words it.
 */
export function checkRegexLength(regexp: string, maxRegexLength: number, usedIn: 'Regexp Query request' | '[query_string]'): void {
  if (regexp.length > maxRegexLength) {
    throw new IllegalArgumentError(
      `The length of regex [${regexp.length}] used in the ${usedIn} has exceeded the allowed maximum of [${maxRegexLength}]. This maximum can be set by changing the [index.max_regex_length] index level setting.`,
    );
  }
}

/** A Lucene regexp as a DFA; throws IllegalArgumentError (syntax) or TooComplexToDeterminizeError. */
export function compileRegexp(regexp: string, options: CompileOptions = {}): Dfa {
  const flags = options.flags ?? REGEXP_FLAGS.ALL;
  const ci = options.caseInsensitive ?? false;
  const max = options.maxDeterminizedStates ?? DEFAULT_MAX_DETERMINIZED_STATES;
  const prefix = options.matchPrefix ?? false;
  return cached(`r${flags}|${ci ? 1 : 0}|${max}|${prefix ? 1 : 0}|${regexp}`, () => {
    const node = parseRegexp(regexp, { flags, caseInsensitive: ci });
    return toDfa(prefix ? { kind: 'concat', parts: [node, { kind: 'any_string' }] } : node, max);
  });
}

/** Exactly `s` (with `caseInsensitive`, any case variant of each character) as a DFA. */
export function compileLiteral(s: string, caseInsensitive: boolean): Dfa {
  return cached(`l${caseInsensitive ? 1 : 0}|${s}`, () => toDfa(literalNode(s, caseInsensitive), DEFAULT_MAX_DETERMINIZED_STATES));
}

/** A Lucene wildcard pattern as a DFA. */
export function compileWildcard(pattern: string, options: CompileOptions = {}): Dfa {
  const ci = options.caseInsensitive ?? false;
  const max = options.maxDeterminizedStates ?? DEFAULT_MAX_DETERMINIZED_STATES;
  return cached(`w${ci ? 1 : 0}|${max}|${pattern}`, () => toDfa(parseWildcard(pattern, ci), max));
}
