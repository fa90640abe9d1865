/**
 * Request bodies → JSON values, with ES-shaped errors for malformed input.
 *
 * JSON.parse is fast but its messages carry no line/column and read nothing like ES's (Jackson's)
 * texts. On the error path only, `describeJsonError` rescans the text to find where it went wrong,
 * so a client sees `[1:10] Unexpected character ('}' (code 125)): expected a value` as from ES;
 * likewise `locateJsonPath` finds where a DSL parse error's JSON path sits in the text.
 */
import { XContentParseError, ParsingError, type EsError, type JsonPath, type Position } from '../errors/index.js';
import { isPlainObject } from '../common/json.js';
import { stringEnd } from '../common/raw-json.js';

export type JsonPosition = Position;

export function positionAt(text: string, offset: number): JsonPosition {
  let line = 1;
  let lineStart = 0;
  // indexOf, not a loop over every character: a body of 95 MB on one line is counted at memchr speed.
  for (let nl = text.indexOf('\n'); nl >= 0 && nl < offset; nl = text.indexOf('\n', nl + 1)) {
    line++;
    lineStart = nl + 1;
  }
  return { line, col: offset - lineStart + 1 };
}

export { stringEnd };

/** Jackson's `StreamReadConstraints.DEFAULT_MAX_DEPTH`, the nesting ES's JSON parser accepts. */
export const MAX_JSON_NESTING_DEPTH = 1000;

/**
 * Parses a JSON request body; throws `x_content_parse_exception` on malformed input and on nesting
 * deeper than ES's parser allows (everything downstream walks values recursively).
 */
export function parseJson(text: string): unknown {
  checkNestingDepth(text);
  return parseJsonChecked(text);
}

/**
 * Refuses JSON text nested deeper than MAX_JSON_NESTING_DEPTH with Jackson's message, at the
 * position of the array or object that goes too deep. One pass over the text, skipped for texts too
 * short to nest that deep.
 */
export function checkNestingDepth(text: string): void {
  if (text.length <= 2 * MAX_JSON_NESTING_DEPTH) return;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_NESTING_DEPTH) throw nestingDepthError(positionAt(text, i), depth);
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
}

/** Jackson's error for an array or object at `p` (where it opens) nested `depth` deep. */
export function nestingDepthError(p: Position, depth: number): XContentParseError {
  return new XContentParseError(
    `[${p.line}:${p.col + 1}] Document nesting depth (${depth}) exceeds the maximum allowed (${MAX_JSON_NESTING_DEPTH}, from \`StreamReadConstraints.getMaxNestingDepth()\`)`,
    undefined,
    null,
  );
}

/** Parses JSON text whose nesting `checkJsonLimits` (json-limits.ts) has already bounded. */
export function parseJsonChecked(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw jsonError(text);
  }
}

/** Parses a body that must be a JSON object (create index, mappings, settings, update). */
export function parseJsonObject(text: string, what = 'request body'): Record<string, unknown> {
  return asJsonObject(parseJson(text), what);
}

/** A JSON body parsed ahead of its route (large bodies, off the main thread): its value or the error parsing gave. */
export type ParsedJson = { readonly value: unknown } | { readonly error: EsError };

/** The value of a body parsed ahead, or the error its parse gave, thrown where `parseJson` would throw it. */
export function parsedJsonValue(parsed: ParsedJson): unknown {
  if ('error' in parsed) throw parsed.error;
  return parsed.value;
}

/** The value if it is a JSON object, else ES's parsing_exception for `what`. */
export function asJsonObject(value: unknown, what = 'request body'): Record<string, unknown> {
  if (!isPlainObject(value)) {
    const e = new ParsingError(`Unknown key for a ${tokenName(value)} in [${what}].`);
    e.markInBody();
    throw e;
  }
  return value;
}

/** The Jackson token name ES uses in messages for a value of this JSON type. */
export function tokenName(value: unknown): string {
  if (value === null) return 'VALUE_NULL';
  if (Array.isArray(value)) return 'START_ARRAY';
  switch (typeof value) {
    case 'object':
      return 'START_OBJECT';
    case 'string':
      return 'VALUE_STRING';
    case 'boolean':
      return 'VALUE_BOOLEAN';
    case 'number':
      return 'VALUE_NUMBER';
    default:
      return 'VALUE_EMBEDDED_OBJECT';
  }
}

export function jsonError(text: string): XContentParseError {
  const { offset, message } = describeJsonError(text);
  const p = positionAt(text, offset);
  return new XContentParseError(`[${p.line}:${p.col}] ${message}`, undefined, null);
}

/** A parse error with the positions of its body paths filled in from the body text (error path only). */
export function withBodyPositions(e: EsError, text: string): EsError {
  return e.withPositions((path, atKey) => locateJsonPath(text, path, atKey));
}

/**
 * The line/col (1-based, as Jackson reports token locations) of the value at `path` in valid JSON
 * `text`, or of its field name with `atKey`. A path that leaves the text (a parser looked at a value
 * it synthesised) stops at the deepest value that exists. Duplicate keys resolve to the last one,
 * as JSON.parse keeps it.
 */
export function locateJsonPath(text: string, path: JsonPath, atKey = false): Position {
  const isWs = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;
  const ws = (i: number) => {
    while (i < text.length && isWs(text.charCodeAt(i))) i++;
    return i;
  };
  const skipString = (i: number) => stringEnd(text, i) + 1;
  /** The offset just after the value starting at `i`. */
  const skipValue = (i: number): number => {
    if (text[i] === '"') return skipString(i);
    if (text[i] !== '{' && text[i] !== '[') {
      for (let c = text.charCodeAt(i); i < text.length && c !== 44 && c !== 93 && c !== 125 && !isWs(c); c = text.charCodeAt(++i));
      return i;
    }
    for (let depth = 0; i < text.length; ) {
      const c = text[i];
      if (c === '"') {
        i = skipString(i);
        continue;
      }
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') depth--;
      i++;
      if (depth === 0) return i;
    }
    return i;
  };
  /** Members of the object or array starting at `i`: [key offset (objects only), key, value offset]. */
  const members = (i: number): Array<[number, string | number, number]> => {
    const out: Array<[number, string | number, number]> = [];
    const isObject = text[i] === '{';
    i = ws(i + 1);
    for (let index = 0; i < text.length && text[i] !== '}' && text[i] !== ']'; index++) {
      const keyAt = i;
      let key: string | number = index;
      if (isObject) {
        const end = skipString(i);
        key = JSON.parse(text.slice(i, end)) as string;
        i = ws(ws(end) + 1); // past the colon
      }
      out.push([keyAt, key, i]);
      i = ws(skipValue(i));
      if (text[i] === ',') i = ws(i + 1);
    }
    return out;
  };
  let at = ws(0);
  for (let depth = 0; depth < path.length && (text[at] === '{' || text[at] === '['); depth++) {
    const member = members(at).filter(([, key]) => key === path[depth]).pop();
    if (!member) break;
    at = atKey && depth === path.length - 1 ? member[0] : member[2];
  }
  return positionAt(text, at);
}

function charDesc(text: string, i: number): string {
  const c = text.codePointAt(i)!;
  return `('${String.fromCodePoint(c)}' (code ${c}))`;
}

/**
 * Finds the first syntax error in `text` (assumed invalid JSON) and words it like Jackson.
 * A small recursive-descent scanner; it validates only, building nothing.
 */
export function describeJsonError(text: string): { offset: number; message: string } {
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  class Fail extends Error {
    constructor(readonly offset: number, readonly msg: string) {
      super(msg);
    }
  }
  const eof = (ctx: string) => new Fail(n, `Unexpected end-of-input${ctx}`);
  const value = (depth: number): void => {
    ws();
    if (i >= n) throw eof(': expected a value');
    if (depth > 1000) throw new Fail(i, 'Document nesting depth exceeds the maximum allowed (1000)');
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (i >= n) throw eof(': expected close marker for Object');
        if (text[i] !== '"') throw new Fail(i, `Unexpected character ${charDesc(text, i)}: was expecting double-quote to start field name`);
        string();
        ws();
        if (i >= n) throw eof(': expected close marker for Object');
        if (text[i] !== ':') throw new Fail(i, `Unexpected character ${charDesc(text, i)}: was expecting a colon to separate field name and value`);
        i++;
        value(depth + 1);
        ws();
        if (i >= n) throw eof(': expected close marker for Object');
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        throw new Fail(i, `Unexpected character ${charDesc(text, i)}: was expecting comma to separate Object entries`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (i >= n) throw eof(': expected close marker for Array');
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        throw new Fail(i, `Unexpected character ${charDesc(text, i)}: was expecting comma to separate Array entries`);
      }
    }
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i, i + 64));
    if (m) throw new Fail(i, `Unrecognized token '${m[0]}': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')`);
    throw new Fail(i, `Unexpected character ${charDesc(text, i)}: expected a value`);
  };
  const string = () => {
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) throw new Fail(i, 'Unexpected character in unicode escape: expected a hex-digit for character escape sequence');
          i += 6;
          continue;
        }
        if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          i += 2;
          continue;
        }
        throw new Fail(i + 1, `Unrecognized character escape ${charDesc(text, i + 1)}`);
      }
      if (c < 32) throw new Fail(i, `Illegal unquoted character ((CTRL-CHAR, code ${c})): has to be escaped using backslash to be included in string value`);
      i++;
    }
    throw eof(': was expecting closing quote for a string value');
  };
  const number = () => {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '-') throw new Fail(i, 'Unexpected character: expected digit for a number');
    i += m[0].length;
  };
  try {
    ws();
    if (i >= n) return { offset: 0, message: 'Unexpected end-of-input: expected a value' };
    value(0);
    ws();
    if (i < n) return { offset: i, message: `Unexpected character ${charDesc(text, i)}: expected end of input` };
    return { offset: 0, message: 'Unexpected error parsing JSON' };
  } catch (e) {
    if (e instanceof Fail) return { offset: e.offset, message: e.msg };
    throw e;
  }
}
