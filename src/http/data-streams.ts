/**
 * `GET /_data_stream[/{name}]` (ES RestGetDataStreamsAction). This server has no data streams, so
 * the answer is what ES gives on a cluster without any: an empty list for no name or wildcards, and
 * index_not_found_exception (404) for a concrete name — which clients probe before writing
 * (Python's `helpers.reindex` asks for its target and only tolerates a 404).
 */
import { IndexNotFoundError } from '../errors/index.js';
import { boolParam } from './params.js';
import type { RouteDef } from './rest.js';

export function dataStreamRoutes(): RouteDef[] {
  return [
    {
      methods: ['GET'],
      paths: ['/_data_stream', '/_data_stream/:name'],
      authz: { action: 'indices:admin/data_stream/get' },
      params: ['expand_wildcards', 'include_defaults', 'master_timeout', 'verbose'],
      handler: (req) => {
        boolParam(req.query, 'include_defaults', false);
        boolParam(req.query, 'verbose', false);
        const concrete = (req.params.name ?? '').split(',').find((n) => n !== '' && n !== '_all' && !n.includes('*'));
        if (concrete !== undefined) throw new IndexNotFoundError(concrete);
        return { body: { data_streams: [] } };
      },
    },
  ];
}
