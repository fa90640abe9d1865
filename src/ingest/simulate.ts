/**
 * `_simulate` (ES SimulatePipelineRequest / SimulateExecutionService): run a stored or inline
 * pipeline over the request's documents without indexing anything. Each document comes back as
 * the pipeline left it, or as its error; `verbose` lists every processor's result. Documents
 * default to `_index: "_index"` and `_id: "_id"`, and show `_version: "-3"`, as ES does.
 */
import { EsError } from '../errors/index.js';
import { isPlainObject } from '../common/json.js';
import { IngestConfigurationError } from '../errors/index.js';
import { IngestDocument, javaType, type JsonMap } from './ingest-document.js';
import { executePipeline } from './execute.js';
import type { IngestService } from './ingest-service.js';
import { ingestTimestamp } from './ingest-service.js';
import { parsePipeline, type Pipeline } from './pipeline.js';

const SIMULATED_PIPELINE = '_simulate_pipeline';

function requireProperty(body: JsonMap, name: string): unknown {
  const v = body[name];
  if (v === undefined || v === null) throw new IngestConfigurationError('required property is missing', { propertyName: name });
  return v;
}

function parseDocs(body: JsonMap): IngestDocument[] {
  const docs = requireProperty(body, 'docs');
  if (!Array.isArray(docs)) throw new IngestConfigurationError(`property isn't a list, but of type [${javaType(docs)}]`, { propertyName: 'docs' });
  const timestamp = ingestTimestamp();
  return docs.map((d) => {
    if (!isPlainObject(d)) throw new IngestConfigurationError(`property isn't a map, but of type [${javaType(d)}]`, { propertyName: 'docs' });
    const source = requireProperty(d, '_source');
    if (!isPlainObject(source)) throw new IngestConfigurationError(`property isn't a map, but of type [${javaType(source)}]`, { propertyName: '_source' });
    const meta: JsonMap = { _index: d._index ?? '_index', _id: d._id ?? '_id', _version: '-3' };
    if (d._routing !== undefined) meta._routing = d._routing;
    return new IngestDocument(structuredClone(source), meta, timestamp);
  });
}

function errorBody(e: EsError): unknown {
  return (e.toBody() as { error: unknown }).error;
}

export async function simulatePipeline(ingest: IngestService, id: string | null, body: unknown, verbose: boolean): Promise<JsonMap> {
  if (!isPlainObject(body)) throw new IngestConfigurationError('request body is required');
  let pipeline: Pipeline;
  if (id !== null) {
    pipeline = ingest.require(id);
  } else {
    pipeline = parsePipeline(SIMULATED_PIPELINE, requireProperty(body, 'pipeline'));
  }
  for (const k of Object.keys(body)) {
    if (k !== 'docs' && k !== 'pipeline') throw new IngestConfigurationError(`unknown key [${k}] in simulate request`);
  }
  const docs = parseDocs(body);
  if (!verbose) {
    const errors = await executePipeline(pipeline, docs, ingest.context);
    return {
      docs: docs.map((d, i) => (errors[i] ? { error: errorBody(errors[i]!) } : d.dropped ? null : { doc: d.render() })),
    };
  }
  // Verbose: one document at a time, recording the document after each processor.
  const out = [];
  for (const doc of docs) {
    const results: JsonMap[] = [];
    await executePipeline(pipeline, [doc], ingest.context, (d, p, status, error) => {
      const r: JsonMap = { processor_type: p.type, status };
      if (p.tag !== null) r.tag = p.tag;
      if (p.description !== null) r.description = p.description;
      if (status === 'error') r.error = errorBody(error!);
      else {
        if (status === 'error_ignored') r.ignored_error = { error: errorBody(error!) };
        if (status !== 'dropped') r.doc = d.clone().render();
      }
      results.push(r);
    });
    out.push({ processor_results: results });
  }
  return { docs: out };
}
