/**
 * `GET|POST /_validate/query` and `/{index}/_validate/query` (ES RestValidateQueryAction): a body
 * that does not parse is `{"valid": false}` (with the parse error under `error` when `explain`),
 * as ES answers it — 200, not an error status; otherwise the query is planned per index.
 */
import { EsError } from '../errors/index.js';
import { parseCountRequest, type QueryNode } from '../dsl/index.js';
import { validateQuery, type IndicesService } from '../cluster/index.js';
import { boolParam, INDICES_OPTIONS, resolveParams } from './params.js';
import { queryFromParams } from './search.js';
import { jsonBody, type RouteDef } from './rest.js';

export function validateQueryRoutes(indices: IndicesService): RouteDef[] {
  return [
    {
      methods: ['GET', 'POST'],
      paths: ['/_validate/query', '/:index/_validate/query'],
      queryBody: true,
      authz: { action: 'indices:admin/validate/query' },
      params: [...INDICES_OPTIONS, 'q', 'df', 'default_operator', 'analyzer', 'analyze_wildcard', 'lenient', 'explain', 'rewrite', 'all_shards'],
      handler: (req) => {
        const explain = boolParam(req.query, 'explain', false);
        boolParam(req.query, 'rewrite', false);
        let query: QueryNode | null;
        try {
          query = queryFromParams(req.query) ?? parseCountRequest(jsonBody(req)).query;
        } catch (e) {
          if (!(e instanceof EsError) || e.status !== 400) throw e;
          return { body: { valid: false, ...(explain ? { error: `${e.type}: ${e.reason}` } : {}) } };
        }
        return {
          body: validateQuery(indices, req.params.index, query, {
            explain, allShards: boolParam(req.query, 'all_shards', false), resolve: resolveParams(req.query, { ignoreUnavailable: false, allowNoIndices: true }),
          }),
        };
      },
    },
  ];
}
