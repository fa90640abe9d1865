/**
 * Ingest pipeline APIs (ES RestPutPipelineAction, RestGetPipelineAction, RestDeletePipelineAction,
 * RestSimulatePipelineAction): definitions are validated when PUT (ES's parse_exception with the
 * processor's type, tag and property), GET of unknown ids is a 404 with an empty body `{}`.
 */
import { ParseError } from '../errors/index.js';
import { asJsonObject } from '../dsl/index.js';
import { simulatePipeline, type IngestService } from '../ingest/index.js';
import { boolParam } from './params.js';
import { hasBody, jsonBody, type RestRequest, type RouteDef } from './rest.js';

function body(req: RestRequest): unknown {
  if (!hasBody(req)) throw new ParseError('request body is required');
  return jsonBody(req);
}

export function ingestRoutes(ingest: IngestService): RouteDef[] {
  return [
    {
      methods: ['PUT'],
      paths: ['/_ingest/pipeline/:id'],
      authz: { action: 'cluster:admin/ingest/pipeline/put' },
      params: ['master_timeout', 'timeout', 'if_version'],
      handler: async (req) => {
        await ingest.put(req.params.id, asJsonObject(body(req)));
        return { body: { acknowledged: true } };
      },
    },
    {
      methods: ['GET'],
      paths: ['/_ingest/pipeline', '/_ingest/pipeline/:id'],
      authz: { action: 'cluster:admin/ingest/pipeline/get' },
      takesBody: false,
      params: ['master_timeout', 'summary'],
      handler: (req) => {
        const found = ingest.get(req.params.id ?? null);
        // ES: a named pipeline that does not exist is a 404 whose body is just `{}`.
        if (req.params.id !== undefined && Object.keys(found).length === 0) return { status: 404, body: {} };
        if (boolParam(req.query, 'summary', false)) {
          return { body: Object.fromEntries(Object.keys(found).map((id) => [id, {}])) };
        }
        return { body: found };
      },
    },
    {
      methods: ['DELETE'],
      paths: ['/_ingest/pipeline/:id'],
      authz: { action: 'cluster:admin/ingest/pipeline/delete' },
      takesBody: false,
      params: ['master_timeout', 'timeout'],
      handler: async (req) => {
        await ingest.delete(req.params.id);
        return { body: { acknowledged: true } };
      },
    },
    {
      methods: ['GET', 'POST'],
      paths: ['/_ingest/pipeline/_simulate', '/_ingest/pipeline/:id/_simulate'],
      authz: { action: 'cluster:admin/ingest/pipeline/simulate' },
      params: ['verbose'],
      handler: async (req) => ({
        body: await simulatePipeline(ingest, req.params.id ?? null, body(req), boolParam(req.query, 'verbose', false)),
      }),
    },
  ];
}
