/**
 * `GET|POST /{index}/_explain/{id}` (ES RestExplainAction): why a document matches a query (or does
 * not) and how its score is computed — the body's `query` or `?q=`, as `_count` takes them.
 */
import { ActionRequestValidationError, IllegalArgumentError } from '../errors/index.js';
import { parseCountRequest } from '../dsl/index.js';
import { explainDocument, type IndicesService, type SearchService } from '../cluster/index.js';
import { queryFromParams } from './search.js';
import { jsonBody, type RouteDef } from './rest.js';

const PARAMS = [
  'q', 'df', 'default_operator', 'analyzer', 'analyze_wildcard', 'lenient', 'routing', 'preference', 'stored_fields',
  '_source', '_source_includes', '_source_excludes',
];

export function explainRoutes(indices: IndicesService, search: SearchService): RouteDef[] {
  return [
    {
      methods: ['GET', 'POST'],
      paths: ['/:index/_explain/:id'],
      queryBody: true,
      authz: { action: 'indices:data/read/explain' },
      params: PARAMS,
      handler: async (req) => {
        const fromBody = parseCountRequest(jsonBody(req)).query;
        const fromQ = queryFromParams(req.query);
        if (fromQ && fromBody) throw new IllegalArgumentError('request [q] parameter and a [query] in the body cannot both be set');
        const given = fromQ ?? fromBody;
        if (given === null) throw new ActionRequestValidationError(['query is missing']);
        // A knn query is resolved to its top k (default 10) over the index first, as a search does.
        const query = await search.resolveKnn(req.params.index, given);
        const { status, body } = await explainDocument(indices, search.options.inference ?? null, req.params.index, req.params.id, req.query.routing ?? null, query);
        return { status, body };
      },
    },
  ];
}
