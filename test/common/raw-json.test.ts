/**
 * parseWithRawObjects must give what JSON.parse gives — values, key order, duplicate keys, escapes —
 * except that objects at the raw paths are RawJson spans whose parse() is JSON.parse of their text;
 * and null (so the caller's JSON.parse reports the error) for anything that is not a JSON object.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RawJson, parseWithRawObjects, rawPaths, skipValue } from '../../src/common/raw-json.js';

const PATHS = rawPaths(['v', 'ml.tokens', 'a.b.c']);
const objectEnd = (text: string, start: number) => skipValue(text, start);

/** The tree with every RawJson replaced by its parse, checking each sits at a raw path. */
function materialize(v: unknown, path: string): unknown {
  if (v instanceof RawJson) {
    expect(PATHS.raw.has(path)).toBe(true);
    return v.parse();
  }
  if (Array.isArray(v)) return v.map((x) => materialize(x, path));
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: materialize(x, path === '' ? k : `${path}.${k}`), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

function same(text: string): void {
  const parsed = parseWithRawObjects(text, PATHS, objectEnd);
  expect(parsed).not.toBeNull();
  const m = materialize(parsed, '');
  expect(m).toEqual(JSON.parse(text));
  expect(JSON.stringify(m)).toBe(JSON.stringify(JSON.parse(text)));
}

describe('parseWithRawObjects', () => {
  it('keeps the objects at raw paths as their text and parses the rest as JSON.parse does', () => {
    const text = ' {"title":"a\\"b","v":{"x":1,"y":2.5},"ml":{"tokens":{"q":0.5},"other":[1,{"tokens":2}]},"n":null} ';
    const parsed = parseWithRawObjects(text, PATHS, objectEnd)!;
    expect(parsed.v).toBeInstanceOf(RawJson);
    expect((parsed.ml as Record<string, unknown>).tokens).toBeInstanceOf(RawJson);
    expect(text.slice((parsed.v as RawJson).start, (parsed.v as RawJson).end)).toBe('{"x":1,"y":2.5}');
    same(text);
  });

  it('follows dotted keys, arrays, duplicate keys (the last wins, in the first one\'s place), escaped keys and __proto__', () => {
    same('{"ml.tokens":{"a":1},"v":[{"a":1},{"b":2}],"v":{"c":3}}');
    same('{"ml":{"tok\\u0065ns":{"a":1}},"__proto__":{"x":1},"2":"two","1":"one"}');
    same('{"a":{"b":{"c":{"z":1},"d":[true,false,null]}},"e":-0.0e+1,"f":"\\ud800"}');
    same('{}');
    same('{"v":{},"ml":{}}');
    same('{"v":null,"ml":[],"a":[[{"b":{"c":{}}}]]}');
  });

  it('answers null for a root that is not an object and for malformed text', () => {
    for (const text of ['[1]', '"x"', '', '{', '{"v":{"a":1}', '{"v":{"a":1}}x', '{"a":01}', '{"a" 1}', '{"a":1,}', "{'a':1}", '{"a":"\u0001"}', '{"ml":{"x":tru}}', '{"v":{"a":1}}}']) {
      expect(parseWithRawObjects(text, PATHS, objectEnd)).toBeNull();
    }
  });

  it('equals JSON.parse on generated documents', () => {
    const key = fc.constantFrom('v', 'ml', 'tokens', 'a', 'b', 'c', 'ml.tokens', 'a.b', 'x', '__proto__', '1');
    const tree = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), tie('object'), fc.array(tie('value'), { maxLength: 3 })),
      object: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    }));
    fc.assert(fc.property(tree.object, fc.boolean(), (obj, pretty) => same(JSON.stringify(obj, null, pretty ? 2 : undefined))), { numRuns: 300 });
  });
});
