/** checkJsonLimits (dsl/json-limits.ts): Jackson's token count and nesting depth, on UTF-8 bytes. */
import { describe, expect, it } from 'vitest';
import { checkJsonLimits, parseJson } from '../../src/dsl/index.js';
import { EsError } from '../../src/errors/index.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** The error checkJsonLimits throws for `text` (padded past the skip threshold when asked), or null. */
function limitError(text: string, maxTokenCount: number): EsError | null {
  try {
    checkJsonLimits(bytes(text), maxTokenCount);
    return null;
  } catch (e) {
    if (!(e instanceof EsError)) throw e;
    return e;
  }
}

const tokenReason = (at: string, count: number, max: number) =>
  `[${at}] Token count (${count}) exceeds the maximum allowed (${max}, from \`StreamReadConstraints.getMaxTokenCount()\`)`;

describe('checkJsonLimits', () => {
  it('counts tokens as Jackson does: brackets, field names, strings, numbers and literals', () => {
    // START_OBJECT FIELD_NAME START_ARRAY 1 -2.5e3 true null "x" END_ARRAY END_OBJECT: 10 tokens.
    const text = '{"a": [1, -2.5e3,true,null, "x"]}';
    expect(limitError(text, 10)).toBeNull();
    const e = limitError(text, 9);
    expect(e?.type).toBe('x_content_parse_exception');
    expect(e?.status).toBe(400);
    expect(e?.message).toBe(tokenReason('1:33', 10, 9));
  });

  it('brackets, quotes and separators inside strings are not tokens', () => {
    const text = '{"k":"a\\"[{,:]}\\\\","l":"\\\\"}';
    // { "k" "…" "l" "\\" }: 6 tokens whatever the strings hold.
    expect(limitError(text, 6)).toBeNull();
    expect(limitError(text, 5)?.message).toBe(tokenReason('1:28', 6, 5));
  });

  it('reports the line and the column in characters (UTF-16 code units), as positions in the text', () => {
    const text = '{\n  "é😀": [\n 1, 2]}';
    // Tokens: { "é😀" [ 1 2 ] }; the 5th is `2` on line 3, column 5.
    expect(limitError(text, 4)?.message).toBe(tokenReason('3:5', 5, 4));
    const col = '  "é😀": ['.length;
    expect(limitError(text, 2)?.message).toBe(tokenReason(`2:${col}`, 3, 2));
  });

  it('refuses nesting deeper than 1,000 with the same message parseJson gives', () => {
    const text = '['.repeat(1001) + ']'.repeat(1001);
    let fromText: unknown;
    try {
      parseJson(text);
    } catch (e) {
      fromText = e;
    }
    const e = limitError(text, 1_000_000);
    expect(e?.message).toBe((fromText as EsError).message);
    expect(e?.message).toMatch(/^\[1:1002\] Document nesting depth \(1001\) exceeds the maximum allowed \(1000, /);
  });

  it('a string that never closes ends the scan; JSON.parse reports it', () => {
    expect(limitError(`{"a":"${'x'.repeat(5000)}`, 3)).toBeNull();
  });
});
