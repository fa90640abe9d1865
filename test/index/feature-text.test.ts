/**
 * Feature objects read straight from the source text (feature-text.ts, the document parser's fast
 * path) must index exactly what the parsed objects index: the same weights (Math.fround of what
 * JSON.parse reads), the same segment, and anything but the plain form — escapes, nulls, strings,
 * repeated names, invalid weights — left to the parsed path with its errors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SegmentBuilder, parseRootMapping } from '../../src/index/index.js';
import { scanFeatureText, scannedFeatures } from '../../src/index/mapping/feature-text.js';

const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };

function scan(text: string): Array<[string, number]> | null {
  const end = scanFeatureText(text, 0);
  if (end < 0) return null;
  expect(end).toBe(text.length);
  const e = scannedFeatures();
  return Array.from({ length: e.count }, (_, k) => [text.slice(e.nameStart[k], e.nameEnd[k]), e.weights[k]]);
}

describe('scanFeatureText', () => {
  it('reads names and float32 weights of the plain form', () => {
    expect(scan('{ "a" : 1 , "b.c":0.5868585,"😀":2e-3,"d":-1.5E+2 }')).toEqual([['a', 1], ['b.c', Math.fround(0.5868585)], ['😀', Math.fround(0.002)], ['d', -150]]);
    expect(scan('{}')).toEqual([]);
  });

  it('reads every JSON number as Math.fround(Number(text))', () => {
    const numbers = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
      fc.tuple(fc.integer({ min: 0, max: 10 ** 9 }), fc.nat(99999999), fc.integer({ min: -400, max: 400 }), fc.boolean())
        .map(([i, f, e, neg]) => `${neg ? '-' : ''}${i}.${String(f).padStart(8, '0')}e${e}`),
      fc.stringMatching(/^-?(0|[1-9]\d{0,25})(\.\d{1,25})?([eE][+-]?\d{1,3})?$/),
    );
    fc.assert(fc.property(numbers, (n) => {
      expect(scan(`{"x":${n}}`)).toEqual([['x', Math.fround(Number(n))]]);
    }), { numRuns: 2000 });
  });

  it('answers -1 for anything but the plain form', () => {
    for (const text of ['{"a":null}', '{"a":"1"}', '{"a":{}}', '{"a":[1]}', '{"a":true}', '{"a\\u0062":1}', '{"a":1,"a":2}', '{"a":01}', '{"a":1.}', '{"a":.5}',
      '{"a":+1}', '{"a":1,}', '{"a":1', '{"a" 1}', '{"\u0001":1}', '{"a":1 "b":2}', '{"a":-}']) {
      expect(scan(text)).toBeNull();
    }
  });

  it('finds a repeated name among many', () => {
    const names = Array.from({ length: 3000 }, (_, i) => `"t${i}":1`);
    expect(scan(`{${names.join(',')}}`)).toHaveLength(3000);
    expect(scan(`{${names.join(',')},"t1234":2}`)).toBeNull();
  });
});

describe('SegmentBuilder over feature text', () => {
  const build = (type: string, sources: string[], extra: Record<string, unknown> = {}) => {
    const builder = new SegmentBuilder(parseRootMapping({ properties: { ml: { properties: { tokens: { type, ...extra } } }, title: { type: 'text' } } }), LIMITS);
    sources.forEach((source, i) => builder.add({ id: String(i), source, seqNo: i, version: 1, indexOrder: i }));
    return builder.finish().fields;
  };
  const vector = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'e.f', '😀', 'z9', '10'), fc.float({ min: Math.fround(0.001), max: 1000, noNaN: true }), { maxKeys: 6 });

  it('builds the same segment as the parsed path, for both types and either score impact', () => {
    fc.assert(fc.property(fc.array(vector, { minLength: 1, maxLength: 12 }), fc.constantFrom('sparse_vector', 'rank_features'), fc.boolean(), (drawn, type, positive) => {
      // rank_features refuses dots in names (tested below).
      const vectors = type === 'rank_features' ? drawn.map((v) => Object.fromEntries(Object.entries(v).map(([k, w]) => [k.replace('.', ''), w]))) : drawn;
      const extra = type === 'rank_features' ? { positive_score_impact: positive } : {};
      // A null entry (skipped, as in ES) sends a document down the parsed path.
      const plain = vectors.map((v) => JSON.stringify({ title: 'x', ml: { tokens: v } }));
      const parsed = vectors.map((v) => JSON.stringify({ title: 'x', ml: { tokens: { ...v, zzz: null } } }));
      const dotted = vectors.map((v) => JSON.stringify({ 'ml.tokens': v, title: 'x' }));
      const a = build(type, plain, extra);
      expect(a).toEqual(build(type, parsed, extra));
      expect(a).toEqual(build(type, dotted, extra));
    }), { numRuns: 150 });
  });

  it('reports the parsed path\'s errors', () => {
    const errorOf = (source: string, type = 'sparse_vector') => {
      try {
        build(type, [source]);
        return null;
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(errorOf('{"ml":{"tokens":{"a":-1}}}')).toMatch(/featureValue must be a positive normal float, got: -1.0 for feature a on field ml.tokens/);
    expect(errorOf('{"ml":{"tokens":{"a":0}}}')).toMatch(/positive normal float, got: 0.0/);
    expect(errorOf('{"ml":{"tokens":{"a.b":1}}}', 'rank_features')).toMatch(/do not support dots in feature names but found \[a.b\]/);
    expect(errorOf('{"ml":{"tokens":[{"a":1},{"a":2}]}}')).toMatch(/multiple values for the same feature \[ml.tokens.a\]/);
    expect(errorOf('{"ml":{"tokens":{"a":1,"a":2}}}')).toBeNull(); // JSON.parse keeps the last, as before
  });
});

describe('scanFeatureText against crafted names', () => {
  /** FNV-1a over UTF-16 units, as the scanner hashes names. */
  const fnv = (s: string): number => {
    let h = 0x811c9dc5 | 0;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h;
  };

  it('hands an object whose names share their hash slot to the parsed path instead of probing one long cluster', () => {
    // 300 distinct names whose hashes agree in their low 11 bits: at most two slots of the table.
    const names: string[] = [];
    for (let n = 0; names.length < 300; n++) if ((fnv(`t${n}`) & 0x7ff) === 0) names.push(`t${n}`);
    const crafted = `{${names.map((name) => `"${name}":1`).join(',')}}`;
    expect(scanFeatureText(crafted, 0)).toBe(-1);
    const plain = `{${names.map((_, i) => `"f${i}":1`).join(',')}}`;
    expect(scanFeatureText(plain, 0)).toBe(plain.length);
    expect(scannedFeatures().count).toBe(300);
  });
});
