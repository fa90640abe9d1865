/**
 * What an index and a pipeline become on each kind of target (pure functions), and the checkpoint
 * file's refusals: an existing one without --resume, a missing or foreign one with it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointFile } from '../../src/cli/export/checkpoint.js';
import { flattenSettings, parseModelMap, planMappings, planPipeline, planSettings, serverKind } from '../../src/cli/export/target-translation.js';

const SOURCE_SETTINGS = {
  index: {
    uuid: 'u', creation_date: '1', provided_name: 'x', version: { created: '8505000' }, number_of_shards: '2', number_of_replicas: '1',
    default_pipeline: 'p', blocks: { write: 'true' }, routing: { allocation: { include: { _tier_preference: 'data_content' } } },
    analysis: { filter: { syn: { type: 'synonym', synonyms: ['a, b'] } } },
  },
};

describe('export translation', () => {
  it('tells threadsearch, Elasticsearch and OpenSearch apart from GET /', () => {
    expect(serverKind({ name: 'threadsearch-0', distribution: undefined })).toBe('threadsearch');
    expect(serverKind({ name: 'es-node-1', distribution: undefined })).toBe('elasticsearch');
    expect(serverKind({ name: 'threadsearch-box', distribution: undefined })).toBe('elasticsearch');
    expect(serverKind({ name: 'os-1', distribution: 'opensearch' })).toBe('opensearch');
  });

  it('drops what a server sets itself, holds back pipelines and blocks until the documents are in', () => {
    const plan = planSettings(flattenSettings(SOURCE_SETTINGS), 'elasticsearch');
    expect(plan.create).toEqual({
      'index.number_of_shards': '2', 'index.number_of_replicas': '1', 'index.routing.allocation.include._tier_preference': 'data_content',
      'index.analysis.filter.syn.type': 'synonym', 'index.analysis.filter.syn.synonyms': ['a, b'],
    });
    expect(plan.afterDocuments).toEqual({ 'index.default_pipeline': 'p', 'index.blocks.write': 'true' });
    expect(plan.notes).toEqual([]);
    const os = planSettings(flattenSettings(SOURCE_SETTINGS), 'opensearch');
    expect(os.create['index.routing.allocation.include._tier_preference']).toBeUndefined();
    expect(os.notes).toEqual(['settings not copied (the target does not have them): index.routing.allocation.include._tier_preference']);
  });

  it('keeps mappings as they are, except sparse_vector → rank_features on OpenSearch (nested too)', () => {
    const mappings = { dynamic: 'strict', properties: { emb: { type: 'sparse_vector' }, ml: { properties: { tokens: { type: 'sparse_vector' } } }, t: { type: 'text', fields: { k: { type: 'keyword' } } } } };
    expect(planMappings(mappings, 'elasticsearch')).toEqual({ mappings, notes: [] });
    const os = planMappings(mappings, 'opensearch');
    expect(os.mappings).toEqual({ dynamic: 'strict', properties: { emb: { type: 'rank_features' }, ml: { properties: { tokens: { type: 'rank_features' } } }, t: mappings.properties.t } });
    expect(os.notes.map((n) => n.split(':')[0])).toEqual(['[emb]', '[ml.tokens]']);
  });

  it('maps inference model ids at any depth and reports .sparse_model_2 left on a target without it', () => {
    const inf = (model: string) => ({ inference: { model_id: model, input_output: [{ input_field: 'a', output_field: 'b' }] } });
    const pipeline = {
      processors: [inf('.sparse_model_2'), { foreach: { field: 'xs', processor: inf('.sparse_model_2') } }, { set: { field: 'f', value: 1, on_failure: [inf('other')] } }],
      on_failure: [{ set: { field: 'err', value: '{{_ingest.on_failure_message}}' } }],
    };
    const mapped = planPipeline(pipeline, new Map([['.sparse_model_2', '.elser_model_2']]), 'elasticsearch');
    expect(JSON.stringify(mapped.body)).not.toContain('.sparse_model_2');
    expect((mapped.body.processors as any)[1].foreach.processor.inference.model_id).toBe('.elser_model_2');
    expect((mapped.body.processors as any)[2].set.on_failure[0].inference.model_id).toBe('other');
    expect(mapped.mapped).toEqual(['.sparse_model_2 → .elser_model_2']);
    expect(mapped.missingModels).toEqual([]);
    expect(planPipeline(pipeline, new Map(), 'elasticsearch')).toMatchObject({ body: pipeline, missingModels: ['.sparse_model_2'] });
    expect(planPipeline(pipeline, new Map(), 'threadsearch').missingModels).toEqual([]);
  });

  it('parses --model-map and returns the first malformed entry', () => {
    expect(parseModelMap(['.sparse_model_2=.elser_model_2', 'a=b,c=d'])).toEqual(new Map([['.sparse_model_2', '.elser_model_2'], ['a', 'b'], ['c', 'd']]));
    expect(parseModelMap(['a=b', 'oops'])).toBe('oops');
  });
});

describe('export checkpoint file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'threadsearch-checkpoint-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is refused without --resume when it exists, and with --resume when missing, unreadable or of another export', () => {
    const path = join(dir, 'c.json');
    const cp = CheckpointFile.start(path, 'http://a', 'http://b');
    cp.update('books', { state: 'copying', indexed: 40, failed: 1, searchAfter: [39] });
    expect(() => CheckpointFile.start(path, 'http://a', 'http://b')).toThrow(/exists from an earlier export: pass --resume/);
    expect(CheckpointFile.resume(path, 'http://a', 'http://b').index('books')).toEqual({ state: 'copying', indexed: 40, failed: 1, searchAfter: [39] });
    expect(() => CheckpointFile.resume(path, 'http://a', 'http://c')).toThrow(/is of an export from http:\/\/a to http:\/\/b, not from http:\/\/a to http:\/\/c/);
    expect(() => CheckpointFile.resume(join(dir, 'none.json'), 'http://a', 'http://b')).toThrow(/no checkpoint file/);
    writeFileSync(join(dir, 'bad.json'), '{"version": 1, "indi');
    expect(() => CheckpointFile.resume(join(dir, 'bad.json'), 'http://a', 'http://b')).toThrow(/not readable JSON/);
    cp.remove();
    expect(() => CheckpointFile.resume(path, 'http://a', 'http://b')).toThrow(/no checkpoint file/);
  });
});
