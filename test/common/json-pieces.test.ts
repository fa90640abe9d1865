import { describe, expect, it } from 'vitest';
import { JsonPieces } from '../../src/common/json-pieces.js';

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

describe('JsonPieces', () => {
  const page = JsonPieces.object('{"hits":', bytes('[{"_source":{"t":"naïve 🦊 ü"}}]'), '}');

  it('writes string and byte pieces as one UTF-8 text', () => {
    expect(page.toString()).toBe('{"hits":[{"_source":{"t":"naïve 🦊 ü"}}]}');
    expect(page.toBuffer().toString('utf8')).toBe(page.toString());
    expect(page.toBuffer().length).toBe(Buffer.byteLength(page.toString()));
    expect(JSON.parse(page.toString())).toEqual({ hits: [{ _source: { t: 'naïve 🦊 ü' } }] });
  });

  it('keeps a text middle as one string', () => {
    const o = JsonPieces.object('{"a":', '[1,"é"]', '}');
    expect(o.pieces).toEqual(['{"a":[1,"é"]}']);
    expect(o.toBuffer().toString('utf8')).toBe('{"a":[1,"é"]}');
  });

  it('adds a first and a last member without touching the bytes', () => {
    const out = page.withFirstMember('"_scroll_id":"x"').withLastMember('"status":200');
    expect(JSON.parse(out.toBuffer().toString('utf8'))).toEqual({ _scroll_id: 'x', hits: [{ _source: { t: 'naïve 🦊 ü' } }], status: 200 });
    expect(out.pieces[1]).toBe(page.pieces[1]);
    // The original is unchanged.
    expect(page.toString()).toBe('{"hits":[{"_source":{"t":"naïve 🦊 ü"}}]}');
  });

  it('joins items, pieces and strings, merging neighbouring text', () => {
    const joined = JsonPieces.join('{"responses":[', [page, '{"error":"ü"}', JsonPieces.object('{"x":', '1', '}')], ']}');
    expect(JSON.parse(joined.toBuffer().toString('utf8'))).toEqual({
      responses: [{ hits: [{ _source: { t: 'naïve 🦊 ü' } }] }, { error: 'ü' }, { x: 1 }],
    });
    expect(joined.pieces).toHaveLength(3);
    expect(JsonPieces.join('[', [], ']').toString()).toBe('[]');
  });

  it('sizes long strings exactly', () => {
    const long = 'ü'.repeat(5000);
    const o = JsonPieces.object(`{"a":"${long}","b":`, bytes('"€"'), '}');
    const buf = o.toBuffer();
    expect(buf.length).toBe(Buffer.byteLength(o.toString()));
    expect(JSON.parse(buf.toString('utf8'))).toEqual({ a: long, b: '€' });
  });
});
