/**
 * SciFact on a threadsearch server process as a client would load it for semantic search: register
 * and deploy `.sparse_model_2`, create an index with title/text and an `ml.tokens` sparse_vector
 * field, encode title + text with `_infer` in batches and `_bulk` them with their tokens, refresh.
 * Shared by the relevance scenarios so they measure the same index.
 */
import type { BeirDataset } from './relevance.js';
import type { JsonCall } from './server-process.js';

export const SCIFACT_MODEL = '.sparse_model_2';

export async function loadSciFactWithModel(call: JsonCall, data: BeirDataset, options: { analyzer?: string; batch: number }): Promise<void> {
  const text = options.analyzer ? { type: 'text', analyzer: options.analyzer } : { type: 'text' };
  await call('PUT', `/_ml/trained_models/${SCIFACT_MODEL}`, { input: { field_names: ['text_field'] } });
  await call('POST', `/_ml/trained_models/${SCIFACT_MODEL}/deployment/_start?wait_for=started`);
  await call('PUT', '/scifact', { mappings: { properties: { title: text, text, ml: { properties: { tokens: { type: 'sparse_vector' } } } } } });
  const docIds = [...data.corpus.keys()];
  for (let i = 0; i < docIds.length; i += options.batch) {
    const ids = docIds.slice(i, i + options.batch);
    const docs = ids.map((id) => data.corpus.get(id)!);
    const inferred = await call('POST', `/_ml/trained_models/${SCIFACT_MODEL}/_infer`, { docs: docs.map((d) => ({ text_field: `${d.title}\n${d.text}` })) });
    const lines = ids.flatMap((id, j) => [
      JSON.stringify({ index: { _index: 'scifact', _id: id } }),
      JSON.stringify({ title: docs[j].title, text: docs[j].text, ml: { tokens: inferred.inference_results[j].predicted_value } }),
    ]);
    await call('POST', '/_bulk', `${lines.join('\n')}\n`, true);
  }
  await call('POST', '/scifact/_refresh');
}
