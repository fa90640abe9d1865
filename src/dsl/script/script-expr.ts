/**
 * A compiled script as plain data: the typed expression the coordinator's analyzer produced for one
 * index (params folded in as constants, every field resolved against the mapping, every operator's
 * Java type decided). It crosses to the workers inside the exec tree, where search/script/ turns it
 * into closures once per shard request. Values are JS numbers for Java's int, long, float and
 * double (each operator applies its type's overflow and rounding), booleans, strings, and epoch
 * millis for dates.
 */

/** The Java type a node's value has at run time (`date`: a ZonedDateTime, `instant`: an Instant, both as epoch millis). */
export type ValueType = 'int' | 'long' | 'float' | 'double' | 'boolean' | 'String' | 'null' | 'date' | 'instant' | 'map' | 'list';
export type NumericType = 'int' | 'long' | 'float' | 'double';

/** What a doc value field reads as in a script (ScriptDocValues.Longs, Doubles, Booleans, Strings, Dates). */
export type DocValueType = 'long' | 'double' | 'boolean' | 'String' | 'date';

export type StringMethod = 'length' | 'isEmpty' | 'equals' | 'contains' | 'startsWith' | 'endsWith' | 'toLowerCase' | 'toUpperCase' | 'trim';
export type DatePart = 'getYear' | 'getMonthValue' | 'getDayOfMonth' | 'getDayOfYear' | 'getHour' | 'getMinute' | 'getSecond';
export type VectorFunction = 'cosineSimilarity' | 'dotProduct' | 'l1norm' | 'l2norm';

/** A Java exception: its ES type and message. */
export interface ScriptCause {
  readonly type: string;
  readonly reason: string;
}

export type ScriptExpr =
  | { readonly k: 'const'; readonly t: ValueType; readonly v: unknown }
  /** The score of the document being scored (a float widened to double). */
  | { readonly k: 'score'; readonly t: 'double' }
  /** `doc[field]`: its value at `index` (`.value` is index 0), its `size()`, or whether it is `empty`. */
  | { readonly k: 'doc'; readonly t: ValueType; readonly field: string; readonly vt: DocValueType; readonly read: 'value' | 'size' | 'empty'; readonly index: ScriptExpr | null; readonly at: number }
  | { readonly k: 'neg'; readonly t: NumericType; readonly e: ScriptExpr }
  | { readonly k: 'not'; readonly t: 'boolean'; readonly e: ScriptExpr }
  /** `+ - * / %` in the promoted type `t` (int and long division by zero: ArithmeticException at `at`). */
  | { readonly k: 'arith'; readonly t: NumericType; readonly op: '+' | '-' | '*' | '/' | '%'; readonly l: ScriptExpr; readonly r: ScriptExpr; readonly at: number }
  /** String concatenation, each side rendered as Java's String.valueOf. */
  | { readonly k: 'concat'; readonly t: 'String'; readonly l: ScriptExpr; readonly r: ScriptExpr; readonly at: number }
  /** A comparison: numbers compared in the promoted type `via`; `same` compares equal values of one type; `never` is a def comparison of two types (false). */
  | { readonly k: 'cmp'; readonly t: 'boolean'; readonly op: '==' | '!=' | '<' | '<=' | '>' | '>='; readonly via: NumericType | 'same' | 'never'; readonly l: ScriptExpr; readonly r: ScriptExpr }
  | { readonly k: 'and' | 'or'; readonly t: 'boolean'; readonly l: ScriptExpr; readonly r: ScriptExpr }
  | { readonly k: 'cond'; readonly t: ValueType; readonly c: ScriptExpr; readonly a: ScriptExpr; readonly b: ScriptExpr }
  /** A numeric conversion to `t` (Java's widening or explicit narrowing). */
  | { readonly k: 'cast'; readonly t: NumericType; readonly e: ScriptExpr }
  /** A date or instant as its epoch millis (`.millis`, `.toInstant().toEpochMilli()`), or a ZonedDateTime's instant. */
  | { readonly k: 'retype'; readonly t: ValueType; readonly e: ScriptExpr }
  /** java.lang.Math's double functions (round: long), and ScoreScriptUtils' saturation, sigmoid and numeric decays. */
  | { readonly k: 'fn'; readonly t: 'double' | 'long'; readonly fn: string; readonly args: readonly ScriptExpr[] }
  /**
   * ScoreScriptUtils.randomScore: murmur3_x86_32 of the field's first value as a string (or of the
   * document's index-wide write order without a field), seeded with the salted seed.
   */
  | { readonly k: 'random'; readonly t: 'double'; readonly saltedSeed: number; readonly field: string | null; readonly vt: DocValueType | null; readonly at: number }
  /**
   * ES's vector functions (VectorScoreScriptUtils) against a dense_vector field: `query` the query
   * vector as the function prepared it (float32, normalized for a float cosine; bytes for a byte
   * field), `qvMagnitude` its norm (byte cosine).
   */
  | {
    readonly k: 'vector'; readonly t: 'double'; readonly fn: VectorFunction; readonly field: string; readonly byte: boolean;
    readonly query: readonly number[]; readonly qvMagnitude: number; readonly at: number;
  }
  /** A String method (length, isEmpty, equals, contains, startsWith, endsWith, toLowerCase, toUpperCase, trim); a null receiver is a NullPointerException at `at`. */
  | { readonly k: 'str'; readonly t: 'int' | 'boolean' | 'String'; readonly fn: StringMethod; readonly target: ScriptExpr; readonly arg: ScriptExpr | null; readonly at: number }
  /** A field of a ZonedDateTime (UTC): getYear, getMonthValue, getDayOfMonth, getDayOfYear, getHour, getMinute, getSecond. */
  | { readonly k: 'datePart'; readonly t: 'int'; readonly part: DatePart; readonly e: ScriptExpr }
  /** An error Painless raises only when the expression runs: the operands first, then `cause` at `at`. */
  | { readonly k: 'fail'; readonly t: ValueType; readonly operands: readonly ScriptExpr[]; readonly cause: ScriptCause; readonly at: number };

/** A script compiled for one index: what its evaluators need besides the expression. */
export interface CompiledScript {
  /** The source (at most script.max_size_in_bytes), for runtime errors' script stacks. */
  readonly source: string;
  readonly lang: string;
  readonly expr: ScriptExpr;
  /** Whether the script reads `_score` (ES's needs_score: otherwise the sub-query need not score). */
  readonly needsScore: boolean;
}
