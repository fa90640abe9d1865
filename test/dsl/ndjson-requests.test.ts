/**
 * The NDJSON request bodies as pure parsers (dsl/bulk-request.ts, dsl/msearch-request.ts): the
 * structure is validated here with ES's messages, item-level problems are left to execution.
 */
import { describe, expect, it } from 'vitest';
import { idTooLong, parseBulkBody, parseDocumentLine } from '../../src/dsl/bulk-request.js';
import { parseMsearchBody } from '../../src/dsl/msearch-request.js';
import { parseJson } from '../../src/dsl/json-body.js';
import type { EsError } from '../../src/errors/index.js';

function thrown(f: () => unknown): EsError {
  try {
    f();
  } catch (e) {
    return e as EsError;
  }
  throw new Error('expected an error');
}

describe('bulk body', () => {
  it('pairs action lines with their source lines, CRLF and blank lines included', () => {
    const items = parseBulkBody('{"index":{"_id":"1"}}\r\n{"a":1}\r\n\n{"delete":{"_index":"o","_id":"2"}}\n{"update":{"_id":3}}\n{"doc":{}}\n', 'd');
    expect(items.map((i) => [i.action, i.index, i.id, i.source])).toEqual([
      ['index', 'd', '1', '{"a":1}'],
      ['delete', 'o', '2', null],
      ['update', 'd', '3', '{"doc":{}}'],
    ]);
  });

  it('reads the UTF-8 bytes of a body (as `_bulk` gets it over HTTP) line by line as it reads the decoded text', () => {
    // Multi-byte characters, CRLF, blank and whitespace lines, and a truncated sequence at a line's end.
    const text = '{"index":{"_id":"é1"}}\r\n{"t":"日本語 ✓ 😀"}\r\n \t\n\n{"create":{"_index":"ü"}}\n{"t":"\u00ff"}\n';
    const bytes = Buffer.concat([Buffer.from(text), Buffer.from('{"index":{}}\n{"bad":"'), Buffer.from([0xe6, 0x97]), Buffer.from('"}\n')]);
    const read = (items: ReturnType<typeof parseBulkBody>) => items.map((i) => [i.action, i.index, i.id, i.meta, i.source]);
    expect(read(parseBulkBody(bytes, 'd'))).toEqual(read(parseBulkBody(bytes.toString('utf8'), 'd')));
    expect(parseBulkBody(bytes, 'd').map((i) => i.source)).toEqual(['{"t":"日本語 ✓ 😀"}', '{"t":"ÿ"}', '{"bad":"\ufffd"}']);
    expect(thrown(() => parseBulkBody(Buffer.from('{"index":{}}\n{}'), 'd')).message).toBe('The bulk request must be terminated by a newline [\\n]');
    expect(thrown(() => parseBulkBody(Buffer.from('{"index":{}}\n{}\n{"index":{"_x":1}}\n{}\n'), 'd')).message).toBe('Action/metadata line [3] contains an unknown parameter [_x]');
    const noIndex = thrown(() => parseBulkBody(Buffer.from('{"index":{}}\n{}\n{"delete":{"_index":"i"}}\n{"create":{}}\n{}\n'), null));
    expect(noIndex.message).toBe('Validation Failed: 1: index is missing;2: index is missing;');
  });

  it('reads the usual action lines straight from the bytes exactly as JSON.parse reads them, and every near miss by the general path', () => {
    const lines = [
      '{"index":{"_index":"bulk","_id":"d1"}}', '{"index":{"_id":"d2","_index":"bulk"}}', '{"create":{"_index":"other","_id":"x y~!"}}',
      '{"index":{"_id":""}}', '{"index":{"_index":"bulk"}}', '{"update":{"_id":"u","_index":"bulk"}}', '{"delete":{"_index":"bulk","_id":"g"}}',
      // near misses: the general path reads (or refuses) them
      '{"index":{}}', '{ "index":{"_id":"a"}}', '{"index":{"_id":"a" }}', '{"index":{"_id":"a\\"b"}}', '{"index":{"_id":"\\u0041"}}',
      '{"index":{"_id":"é"}}', '{"index":{"_id":1}}', '{"index":{"_id":"a","_id":"b"}}', '{"index":{"_index":"a","_index":"b"}}',
      '{"index":{"_id":"a","routing":"r"}}', '{"index":{"_id":"a"}} ', '{"index":{"_id":"a"},"x":1}', '{"index":{"_id":"a"}}}', '{"indexes":{"_id":"a"}}',
      '{"index":{"_id":"a","_index":null}}', '{"index":{"_id":"a",}}', '{"index":{"_id":"a"',
    ];
    const read = (items: ReturnType<typeof parseBulkBody>) => items.map((i) => [i.action, i.index, i.id, Object.entries(i.meta), i.source]);
    const outcome = (body: string | Buffer) => {
      try {
        return read(parseBulkBody(body, 'd'));
      } catch (e) {
        return (e as Error).message;
      }
    };
    for (const line of lines) {
      for (const eol of ['\n', '\r\n']) {
        const text = line.startsWith('{"delete"') ? `${line}${eol}` : `${line}${eol}{"a":1}${eol}${line}${eol}{"b":2}${eol}`;
        expect(outcome(Buffer.from(text)), text).toEqual(outcome(text));
      }
    }
    // A line cut short at the body's end, and one running on into the next line.
    for (const text of ['{"index":{"_id":"a"}}', '{"index":{"_id":"a\n"}}\n{}\n']) expect(outcome(Buffer.from(text))).toEqual(outcome(text));
    expect(parseBulkBody(Buffer.from('{"index":{"_index":"bulk","_id":"d1"}}\n{}\n{"index":{"_id":"e","_index":"bulk"}}\n{}\n'), 'd').map((i) => i.index)).toEqual(['bulk', 'bulk']);
  });

  it('refuses a structurally broken body with ES reasons', () => {
    expect(thrown(() => parseBulkBody('{"index":{}}\n{}', 'd')).message).toBe('The bulk request must be terminated by a newline [\\n]');
    expect(thrown(() => parseBulkBody('{"index":{"_x":1}}\n{}\n', 'd')).message).toBe('Action/metadata line [1] contains an unknown parameter [_x]');
    expect(thrown(() => parseBulkBody('{"upsert":{}}\n', 'd')).message).toMatch(/^Malformed action\/metadata line \[1\], expected field \[create\]/);
    expect(thrown(() => parseBulkBody('{"index":{"routing":{"a":1}}}\n{}\n', 'd')).message).toBe('Malformed action/metadata line [1], expected a simple value for field [routing] but found [START_OBJECT]');
    const noIndex = thrown(() => parseBulkBody('{"index":{}}\n{}\n', null));
    expect([noIndex.type, noIndex.message]).toEqual(['action_request_validation_exception', 'Validation Failed: 1: index is missing;']);
  });

  it('measures ids in UTF-8 bytes (512 at most) and quotes only a prefix', () => {
    expect(idTooLong('é'.repeat(256))).toBeNull();
    const msg = idTooLong('é'.repeat(257))!;
    expect(msg).toMatch(/must be no longer than 512 bytes but was: 514$/);
    expect(idTooLong('x'.repeat(100_000))!.length).toBeLessThan(1_000);
  });

  it('a source line that is not JSON is a document parsing error', () => {
    const e = thrown(() => parseDocumentLine('{"a":'));
    expect([e.type, e.status]).toEqual(['document_parsing_exception', 400]);
    expect(e.message).toMatch(/^\[1:\d+\] failed to parse: /);
  });
});

describe('msearch body', () => {
  const read = (query: Record<string, string | undefined>, body: string | null) => ({ query, body });

  it('merges URL item defaults with each header and hands every body line to the reader', () => {
    const items = parseMsearchBody('{"index":"a","ignoreUnavailable":true}\n{"size":1}\n\n{}\n', 'def', { routing: 'r', typed_keys: 'true' }, read);
    expect(items).toEqual([
      { index: 'a', query: { routing: 'r', ignore_unavailable: 'true' }, request: { query: { routing: 'r', ignore_unavailable: 'true' }, body: '{"size":1}' } },
      { index: 'def', query: { routing: 'r' }, request: { query: { routing: 'r' }, body: '{}' } },
    ]);
  });

  it('items whose header sets nothing share one parameters object; a header with keys gets its own', () => {
    const items = parseMsearchBody('{}\n{"size":1}\n\n{"size":2}\n{"routing":"x"}\n{}\n{}\n{}\n', 'def', { routing: 'r', typed_keys: 'true' }, read);
    expect(items.map((i) => [i.index, i.query])).toEqual([['def', { routing: 'r' }], ['def', { routing: 'r' }], ['def', { routing: 'x' }], ['def', { routing: 'r' }]]);
    expect(items[1].query).toBe(items[0].query);
    expect(items[3].query).toBe(items[0].query);
    expect(items[2].query).not.toBe(items[0].query);
  });

  it('refuses unknown header keys and a missing final newline; locates body errors in their own line', () => {
    expect(thrown(() => parseMsearchBody('{"foo":1}\n{}\n', undefined, {}, read)).message).toBe('key [foo] is not supported in the metadata section');
    expect(thrown(() => parseMsearchBody('{}\n{}', undefined, {}, read)).message).toBe('The msearch request must be terminated by a newline [\\n]');
    expect(thrown(() => parseMsearchBody('[]\n{}\n', undefined, {}, read)).message).toBe('Expected [START_OBJECT] but found [START_ARRAY] in the msearch header on line [1]');
    // The second item's body is malformed at its own line's column 10, not the request's.
    const e = thrown(() => parseMsearchBody('{}\n{}\n{}\n{"size": }\n', undefined, {}, (_q, body) => parseJson(body ?? '{}')));
    expect([e.type, e.message]).toEqual(['x_content_parse_exception', expect.stringMatching(/^\[1:10\] /)]);
  });
});
