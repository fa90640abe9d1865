/** `GET|POST /{index}/_termvectors/{id}` (ES RestTermVectorsAction): the document's terms, generated from `_source`. */
import { isObject, readBoolean, readStringArray } from '../dsl/index.js';
import { termVectors, type IndicesService } from '../cluster/index.js';
import { boolParam } from './params.js';
import { jsonBody, type RouteDef } from './rest.js';

const PARAMS = ['fields', 'field_statistics', 'term_statistics', 'offsets', 'positions', 'payloads', 'routing', 'preference', 'realtime', 'version', 'version_type'];

export function termVectorsRoutes(indices: IndicesService): RouteDef[] {
  return [
    {
      methods: ['GET', 'POST'],
      paths: ['/:index/_termvectors/:id'],
      authz: { action: 'indices:data/read/tv' },
      queryBody: true,
      params: PARAMS,
      handler: (req) => {
        // Body members (ES TermVectorsRequest.parseRequest) first; URL parameters win.
        const body = req.body === null ? {} : jsonBody(req);
        const b = isObject(body) ? body : {};
        const flag = (name: string, def: boolean) => boolParam(req.query, name, b[name] === undefined ? def : readBoolean('termvectors', name, b[name]));
        const fields = req.query.fields !== undefined ? req.query.fields.split(',') : b.fields !== undefined ? readStringArray('termvectors', 'fields', b.fields) : null;
        flag('payloads', true);
        const { status, body: out } = termVectors(indices, req.params.index, req.params.id, {
          fields, positions: flag('positions', true), offsets: flag('offsets', true), termStatistics: flag('term_statistics', false),
          fieldStatistics: flag('field_statistics', true), routing: req.query.routing ?? null,
        });
        return { status, body: out };
      },
    },
  ];
}
