/**
 * Every processor on its own (ES ingest-common behaviour and messages): success and failure cases,
 * run through the real pipeline executor with a stub model for the inference processor.
 */
import { describe, expect, it } from 'vitest';
import { executePipeline, IngestDocument, parsePipeline, type JsonMap } from '../../src/ingest/index.js';
import type { SparseInference, SparseVector } from '../../src/ml/index.js';

/** A stub model: one token per word, weight = word length / 10 (float32), counting calls. */
class StubModel implements SparseInference {
  calls: string[][] = [];
  async infer(_id: string, texts: readonly string[]): Promise<SparseVector[]> {
    this.calls.push([...texts]);
    return texts.map((t) => {
      const tokens = t.split(/\s+/).filter((w) => w !== '');
      return { tokens, weights: Float32Array.from(tokens.map((w) => w.length / 10)), isTruncated: t.length > 40 };
    });
  }
  inputField(): string {
    return 'text_field';
  }
}

async function run(processors: unknown[], source: JsonMap, model = new StubModel()): Promise<{ doc: IngestDocument; error: string | null; type: string | null }> {
  const pipeline = parsePipeline('t', { processors });
  const doc = new IngestDocument(structuredClone(source), { _index: 'i', _id: '1' }, '2024-01-01T00:00:00.000Z');
  const [error] = await executePipeline(pipeline, [doc], { inference: model });
  return { doc, error: error?.message ?? null, type: error?.type ?? null };
}

describe('set / append / remove / rename', () => {
  it('set writes values, templates, copy_from and honours override and ignore_empty_value', async () => {
    expect((await run([{ set: { field: 'a.b', value: { x: '{{n}}' } } }], { n: 3 })).doc.source).toEqual({ n: 3, a: { b: { x: '3' } } });
    expect((await run([{ set: { field: 'c', copy_from: 'n' } }], { n: [1] })).doc.source).toEqual({ n: [1], c: [1] });
    expect((await run([{ set: { field: 'n', value: 9, override: false } }], { n: 1 })).doc.source).toEqual({ n: 1 });
    expect((await run([{ set: { field: 'e', value: '{{missing}}', ignore_empty_value: true } }], {})).doc.source).toEqual({});
    expect(() => parsePipeline('t', { processors: [{ set: { field: 'a', value: 1, copy_from: 'b' } }] })).toThrow('[copy_from] cannot set both `copy_from` and `value` in the same processor');
    expect(() => parsePipeline('t', { processors: [{ set: { field: 'a' } }] })).toThrow('[value] required property is missing');
  });

  it('append turns a value into a list, optionally without duplicates', async () => {
    expect((await run([{ append: { field: 'tags', value: ['b', 'c'] } }], { tags: 'a' })).doc.source).toEqual({ tags: ['a', 'b', 'c'] });
    expect((await run([{ append: { field: 'tags', value: 'a', allow_duplicates: false } }], { tags: ['a'] })).doc.source).toEqual({ tags: ['a'] });
    expect((await run([{ append: { field: 'new', value: 1 } }], {})).doc.source).toEqual({ new: [1] });
  });

  it('remove deletes one or several fields, or keeps only some', async () => {
    expect((await run([{ remove: { field: ['a', 'b.c'] } }], { a: 1, b: { c: 2, d: 3 } })).doc.source).toEqual({ b: { d: 3 } });
    expect((await run([{ remove: { field: 'x' } }], {})).error).toBe('field [x] not present as part of path [x]');
    expect((await run([{ remove: { field: 'x', ignore_missing: true } }], { a: 1 })).doc.source).toEqual({ a: 1 });
    expect((await run([{ remove: { keep: ['a'] } }], { a: 1, b: 2 })).doc.source).toEqual({ a: 1 });
  });

  it('rename moves a field and refuses to overwrite', async () => {
    expect((await run([{ rename: { field: 'a', target_field: 'b.c' } }], { a: 1 })).doc.source).toEqual({ b: { c: 1 } });
    expect((await run([{ rename: { field: 'a', target_field: 'b' } }], { a: 1, b: 2 })).error).toBe('field [b] already exists');
    expect((await run([{ rename: { field: 'a', target_field: 'b', override: true } }], { a: 1, b: 2 })).doc.source).toEqual({ b: 1 });
    expect((await run([{ rename: { field: 'z', target_field: 'b' } }], {})).error).toBe("field [z] doesn't exist");
  });
});

describe('string processors', () => {
  it('lowercase, uppercase and trim strings and lists of strings', async () => {
    expect((await run([{ lowercase: { field: 'a' } }, { uppercase: { field: 'b', target_field: 'c' } }, { trim: { field: 'd' } }], { a: 'AbC', b: ['x', 'y'], d: '  pad \t' })).doc.source)
      .toEqual({ a: 'abc', b: ['x', 'y'], c: ['X', 'Y'], d: 'pad' });
  });

  it('fail on missing, null and non-string fields with ES messages', async () => {
    expect((await run([{ lowercase: { field: 'a' } }], {})).error).toBe('field [a] not present as part of path [a]');
    expect((await run([{ lowercase: { field: 'a' } }], { a: null })).error).toBe('field [a] is null, cannot process it.');
    expect((await run([{ lowercase: { field: 'a' } }], { a: 5 })).error).toBe('field [a] of type [java.lang.Integer] cannot be cast to [java.lang.String]');
    expect((await run([{ trim: { field: 'a', ignore_missing: true } }], {})).error).toBeNull();
  });
});

describe('convert / split / join / date', () => {
  it('convert handles each type and reports what does not convert', async () => {
    const src = { i: '42', l: '0x10', f: '1.5', d: 2, b: 'TRUE', s: 7, auto: '3.25', list: ['1', '2'] };
    const { doc } = await run([
      { convert: { field: 'i', type: 'integer' } }, { convert: { field: 'l', type: 'long' } }, { convert: { field: 'f', type: 'float' } },
      { convert: { field: 'd', type: 'double' } }, { convert: { field: 'b', type: 'boolean' } }, { convert: { field: 's', type: 'string' } },
      { convert: { field: 'auto', type: 'auto' } }, { convert: { field: 'list', type: 'integer', target_field: 'ints' } },
    ], src);
    expect(doc.source).toEqual({ i: 42, l: 16, f: 1.5, d: 2, b: true, s: '7', auto: 3.25, list: ['1', '2'], ints: [1, 2] });
    expect((await run([{ convert: { field: 'a', type: 'integer' } }], { a: 'x1' })).error).toBe('unable to convert [x1] to integer');
    expect((await run([{ convert: { field: 'a', type: 'boolean' } }], { a: 'yes' })).error).toBe('[yes] is not a boolean value, cannot convert to boolean');
    expect((await run([{ convert: { field: 'a', type: 'ip' } }], { a: '999.1.1.1' })).error).toBe('[999.1.1.1] is not a valid ip');
    expect(() => parsePipeline('t', { processors: [{ convert: { field: 'a', type: 'bogus' } }] })).toThrow('[type] type [bogus] not supported, cannot convert field.');
  });

  it('split on a regex, join with a separator', async () => {
    expect((await run([{ split: { field: 'a', separator: '\\s*,\\s*' } }], { a: 'x , y,z,,' })).doc.source).toEqual({ a: ['x', 'y', 'z'] });
    expect((await run([{ split: { field: 'a', separator: ',', preserve_trailing: true } }], { a: 'x,' })).doc.source).toEqual({ a: ['x', ''] });
    expect((await run([{ split: { field: 'a', separator: ',' } }], { a: 1 })).error).toBe('field [a] of type [java.lang.Integer] cannot be cast to [java.lang.String]');
    expect((await run([{ join: { field: 'a', separator: '-', target_field: 'b' } }], { a: ['x', 1, true] })).doc.source).toEqual({ a: ['x', 1, true], b: 'x-1-true' });
    expect((await run([{ join: { field: 'a', separator: '-' } }], { a: 'x' })).error).toBe('field [a] of type [java.lang.String] cannot be cast to [java.util.List]');
  });

  it('date parses with the first matching format and writes the output format', async () => {
    const { doc } = await run([{ date: { field: 'd', formats: ['dd/MM/yyyy', 'ISO8601'] } }], { d: '2024-03-05T10:20:30Z' });
    expect(doc.source['@timestamp']).toBe('2024-03-05T10:20:30.000Z');
    const unix = await run([{ date: { field: 'd', formats: ['UNIX_MS'], target_field: 't', output_format: 'yyyy-MM-dd' } }], { d: 86_400_000 });
    expect(unix.doc.source.t).toBe('1970-01-02');
    const bad = await run([{ date: { field: 'd', formats: ['yyyy-MM-dd'] } }], { d: 'not a date' });
    expect(bad.error).toBe('unable to parse date [not a date]');
    expect(() => parsePipeline('t', { processors: [{ date: { field: 'd' } }] })).toThrow('[formats] required property is missing');
  });
});

describe('drop / fail / failure handling', () => {
  it('drop marks the document and stops the pipeline for it', async () => {
    const { doc, error } = await run([{ drop: {} }, { set: { field: 'x', value: 1 } }], { a: 1 });
    expect(doc.dropped).toBe(true);
    expect(error).toBeNull();
    expect(doc.source).toEqual({ a: 1 });
  });

  it('fail fails the document with its templated message, 500', async () => {
    const r = await run([{ fail: { message: 'bad {{a}}' } }], { a: 'input' });
    expect(r).toMatchObject({ error: 'bad input', type: 'fail_processor_exception' });
  });

  it('ignore_failure skips a failing processor; processor on_failure handles it and the pipeline goes on', async () => {
    expect((await run([{ lowercase: { field: 'x', ignore_failure: true } }, { set: { field: 'after', value: 1 } }], {})).doc.source).toEqual({ after: 1 });
    const handled = await run([
      { lowercase: { field: 'x', tag: 'lc', on_failure: [{ set: { field: 'err', value: '{{_ingest.on_failure_processor_type}}/{{_ingest.on_failure_processor_tag}}' } }] } },
      { set: { field: 'after', value: 1 } },
    ], {});
    expect(handled.doc.source).toEqual({ err: 'lowercase/lc', after: 1 });
    expect(handled.doc.ingest.on_failure_message).toBeUndefined();
  });

  it('an on_failure handler that fails fails the document', async () => {
    const r = await run([{ lowercase: { field: 'x', on_failure: [{ fail: { message: 'handler gave up' } }] } }], {});
    expect(r.error).toBe('handler gave up');
  });
});

describe('inference', () => {
  it('batches every document of a run into one model request and writes ES-shaped results', async () => {
    const model = new StubModel();
    const pipeline = parsePipeline('t', { processors: [{ inference: { model_id: 'm', input_output: [{ input_field: 'a', output_field: 'out.a' }, { input_field: 'b', output_field: 'b_exp' }] } }] });
    const docs = [1, 2, 3].map((i) => new IngestDocument({ a: `alpha ${i}`, b: 'beta gamma' }, { _index: 'i', _id: String(i) }, 'ts'));
    const errors = await executePipeline(pipeline, docs, { inference: model });
    expect(errors).toEqual([null, null, null]);
    expect(model.calls).toEqual([['alpha 1', 'beta gamma', 'alpha 2', 'beta gamma', 'alpha 3', 'beta gamma']]);
    expect(docs[0].source).toEqual({ a: 'alpha 1', b: 'beta gamma', out: { a: { alpha: 0.5, 1: 0.1 }, model_id: 'm' }, b_exp: { beta: 0.4, gamma: 0.5 } });
  });

  it('marks truncated input and fails every document of the batch when the model refuses', async () => {
    const long = 'x'.repeat(41);
    const r = await run([{ inference: { model_id: 'm', input_output: { input_field: 'a', output_field: 'e' } } }], { a: long });
    expect(r.doc.source).toEqual({ a: long, e: { [long]: 4.1 }, is_truncated: true, model_id: 'm' });
    const refusing: SparseInference = { infer: async () => { throw new (await import('../../src/errors/index.js')).StatusError('queue full', 429); } };
    const pipeline = parsePipeline('t', { processors: [{ inference: { model_id: 'm', input_output: { input_field: 'a', output_field: 'e' } } }] });
    const docs = [new IngestDocument({ a: 'x' }, {}, 'ts'), new IngestDocument({ a: 'y' }, {}, 'ts')];
    const errors = await executePipeline(pipeline, docs, { inference: refusing });
    expect(errors.map((e) => e?.status)).toEqual([429, 429]);
  });
});
