/**
 * Limits on query DSL bodies (search-type routes) checked on the body's bytes before it is decoded
 * or parsed: Jackson's StreamReadConstraints (`maxDocumentLength`, `maxTokenCount`,
 * `maxNestingDepth`) with its messages. ES relaxes Jackson's own limits and bounds a body only by
 * `http.max_content_length`; here a query body also costs the main thread one structured-clone copy
 * of its parsed value plus a walk over every value, so its size and token count are bounded too
 * (`http.max_query_content_length`, `http.max_query_token_count`).
 */
import { XContentParseError, type Position } from '../errors/index.js';
import { MAX_JSON_NESTING_DEPTH, nestingDepthError } from './json-body.js';

/** What a query DSL body may hold. */
export interface QueryBodyLimits {
  /** `http.max_query_content_length`: decoded bytes (413 content_too_long_exception past it). */
  readonly maxContentLength: number;
  /** `http.max_query_token_count`: JSON tokens, as Jackson counts them (400 x_content_parse_exception past it). */
  readonly maxTokenCount: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * One pass over UTF-8 JSON `bytes`: refuses nesting deeper than MAX_JSON_NESTING_DEPTH and more
 * than `maxTokenCount` tokens (`{`, `}`, `[`, `]`, each field name, string, number and literal, as
 * Jackson's `maxTokenCount` counts them), with Jackson's message at the offending token. It judges
 * nothing else: malformed JSON is JSON.parse's to report. A body shorter than `maxTokenCount` bytes
 * cannot hold more tokens, and one short of the depth cannot nest that deep: both skip the scan.
 */
export function checkJsonLimits(bytes: Uint8Array, maxTokenCount: number): void {
  const n = bytes.length;
  if (n <= maxTokenCount && n <= 2 * MAX_JSON_NESTING_DEPTH) return;
  let depth = 0;
  let tokens = 0;
  // Inside a number or literal (`true`, `-1.5e3`): its first byte counted it.
  let inScalar = false;
  for (let i = 0; i < n; i++) {
    const c = bytes[i];
    let token = false;
    if (c === QUOTE) {
      token = true;
      i = closingQuote(bytes, i);
      inScalar = false;
    } else if (c === 0x7b || c === 0x5b) {
      token = true;
      inScalar = false;
      if (++depth > MAX_JSON_NESTING_DEPTH) throw nestingDepthError(bytePosition(bytes, i), depth);
    } else if (c === 0x7d || c === 0x5d) {
      token = true;
      inScalar = false;
      depth--;
    } else if (c === 0x2c || c === 0x3a || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      inScalar = false;
    } else if (!inScalar) {
      token = inScalar = true;
    }
    if (token && ++tokens > maxTokenCount) {
      const p = bytePosition(bytes, i);
      throw new XContentParseError(
        `[${p.line}:${p.col}] Token count (${tokens}) exceeds the maximum allowed (${maxTokenCount}, from \`StreamReadConstraints.getMaxTokenCount()\`)`,
        undefined,
        null,
      );
    }
  }
}

/**
 * The offset of the quote closing the string that opens at `open` (bytes.length - 1 when none):
 * indexOf jumps over the string's content at memchr speed; every backslash run is counted once.
 */
function closingQuote(bytes: Uint8Array, open: number): number {
  for (let q = bytes.indexOf(QUOTE, open + 1); q >= 0; q = bytes.indexOf(QUOTE, q + 1)) {
    let backslashes = 0;
    while (bytes[q - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return q;
  }
  return bytes.length - 1;
}

/** The 1-based line and column (in UTF-16 code units, as the text's positions count) of byte `offset`. */
function bytePosition(bytes: Uint8Array, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let nl = bytes.indexOf(0x0a); nl >= 0 && nl < offset; nl = bytes.indexOf(0x0a, nl + 1)) {
    line++;
    lineStart = nl + 1;
  }
  let col = 1;
  // A UTF-8 sequence is one code unit at its lead byte, two for a 4-byte one (a surrogate pair).
  for (let i = lineStart; i < offset; i++) {
    const b = bytes[i];
    if ((b & 0xc0) !== 0x80) col += b >= 0xf0 ? 2 : 1;
  }
  return { line, col };
}
