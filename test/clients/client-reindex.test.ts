/**
 * The semantic ingest workflow through the official Node clients (8.x and 9.x, unchanged):
 * `ingest.putPipeline` with an inference processor, `reindex` with `wait_for_completion: false`,
 * the usual `tasks.get` polling loop until `completed`, then a `text_expansion` search — plus
 * `tasks.cancel` and the client's 404 for an unknown task.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as Client8, errors as errors8 } from 'es8';
import { Client as Client9, errors as errors9 } from 'es9';
import { createTestApp, type TestApp } from '../support/test-app.js';

const MODEL = '.sparse_model_2';
let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
  url = await t.listen();
  await t.request('PUT', `/_ml/trained_models/${MODEL}`, { input: { field_names: ['text_field'] } });
  await t.request('POST', `/_ml/trained_models/${MODEL}/deployment/_start?wait_for=started`);
  const lines: unknown[] = [];
  const texts = ['octopus and coral reef', 'bank shares fell', 'bread flour and yeast', 'whales sing in the ocean', 'a tax on imports'];
  for (let i = 0; i < 40; i++) lines.push({ index: { _index: 'client-src', _id: String(i) } }, { content: `${texts[i % texts.length]} ${i}` });
  expect((await t.bulk('/_bulk?refresh=true', lines)).body.errors).toBe(false);
});
afterAll(async () => t.close());

for (const [major, Client, errors] of [[8, Client8, errors8], [9, Client9, errors9]] as const) {
  describe(`@elastic/elasticsearch ${major}.x`, () => {
    const client = () => new (Client as typeof Client8)({ node: url });
    const dest = `client-dest-${major}`;

    it('puts a pipeline, reindexes through it as a task, polls tasks.get, and finds the hit', async () => {
      const es = client();
      await es.ingest.putPipeline({
        id: `elser-${major}`,
        processors: [{ inference: { model_id: MODEL, input_output: [{ input_field: 'content', output_field: 'content_embedding' }] } as never }],
      });
      await es.indices.create({ index: dest, mappings: { properties: { content: { type: 'text' }, content_embedding: { type: 'sparse_vector' } } } });
      const started = await es.reindex({
        source: { index: 'client-src', size: 10 }, dest: { index: dest, pipeline: `elser-${major}` }, wait_for_completion: false,
      });
      expect(typeof started.task).toBe('string');
      let status = await es.tasks.get({ task_id: String(started.task) });
      for (let i = 0; !status.completed && i < 500; i++) {
        await new Promise((r) => setTimeout(r, 20));
        status = await es.tasks.get({ task_id: String(started.task) });
      }
      expect(status.completed).toBe(true);
      expect(status.response).toMatchObject({ total: 40, created: 40, batches: 4, failures: [] });
      await es.indices.refresh({ index: dest });
      const res = await es.search({ index: dest, query: { text_expansion: { content_embedding: { model_id: MODEL, model_text: 'octopus' } } } as never });
      const top = res.hits.hits[0];
      expect((top._source as any).content).toMatch(/^octopus/);
      expect((top._source as any).model_id).toBe(MODEL);
      await es.close();
    });

    it('lists and cancels a running reindex, and rejects an unknown task with a 404', async () => {
      const es = client();
      const started = await es.reindex({ source: { index: 'client-src', size: 2 }, dest: { index: `${dest}-c` }, wait_for_completion: false, requests_per_second: 5 });
      const listed = await es.tasks.list({ actions: '*reindex', detailed: true });
      const tasks = Object.values(listed.nodes ?? {}).flatMap((n: any) => Object.keys(n.tasks));
      expect(tasks).toContain(started.task);
      await es.tasks.cancel({ task_id: String(started.task) });
      const done = await es.tasks.get({ task_id: String(started.task), wait_for_completion: true, timeout: '10s' });
      expect((done.response as any).canceled).toBe('by user request');
      const node = String(started.task).split(':')[0];
      await expect(es.tasks.get({ task_id: `${node}:999999` })).rejects.toBeInstanceOf(errors.ResponseError);
      await es.close();
    });
  });
}
