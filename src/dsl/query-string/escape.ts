/**
 * Backslash escapes of the query syntax: QueryParserBase.discardEscapeChar, which also decodes
 * `\uXXXX`. Terms, phrases, field names and range bounds go through it; wildcard and regexp
 * patterns do not (Lucene hands them over raw, because WildcardQuery and RegExp read `\` themselves).
 */

/** Thrown by discardEscapeChar with Lucene's ParseException text; the parser adds the position. */
export class InvalidEscapeError extends Error {}

function hexToInt(c: string): number {
  const code = c.charCodeAt(0);
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  if (code >= 0x41 && code <= 0x46) return code - 0x41 + 10;
  throw new InvalidEscapeError(`Non-hex character in Unicode escape sequence: ${c}`);
}

/** `\x` → `x` for any x, `\\` → `\`, `\u0041` → `A`. */
export function discardEscapeChar(input: string): string {
  let out = '';
  let escaped = false;
  let multiplier = 0; // > 0 while reading the 4 hex digits of \uXXXX
  let codePoint = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (multiplier > 0) {
      codePoint += hexToInt(c) * multiplier;
      multiplier >>>= 4;
      if (multiplier === 0) {
        out += String.fromCharCode(codePoint);
        codePoint = 0;
      }
    } else if (escaped) {
      if (c === 'u') multiplier = 16 * 16 * 16;
      else out += c;
      escaped = false;
    } else if (c === '\\') {
      escaped = true;
    } else {
      out += c;
    }
  }
  if (multiplier > 0) throw new InvalidEscapeError('Truncated unicode escape sequence.');
  if (escaped) throw new InvalidEscapeError('Term can not end with escape character.');
  return out;
}
