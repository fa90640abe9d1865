/** `_rank_eval` (ES RestRankEvalAction): evaluates rated search requests against the target indices. */
import { IllegalArgumentError, ParseError } from '../errors/index.js';
import { parseRankEvalRequest } from '../dsl/index.js';
import { rankEval, type SearchService } from '../cluster/index.js';
import { INDICES_OPTIONS, resolveParams } from './params.js';
import { hasBody, jsonBody, type RouteDef } from './rest.js';

export function rankEvalRoutes(search: SearchService): RouteDef[] {
  return [
    {
      methods: ['GET', 'POST'],
      paths: ['/_rank_eval', '/:index/_rank_eval'],
      queryBody: true,
      authz: { action: 'indices:data/read/rank_eval' },
      params: [...INDICES_OPTIONS, 'search_type'],
      handler: async (req) => {
        const searchType = req.query.search_type;
        if (searchType !== undefined && searchType !== 'query_then_fetch' && searchType !== 'dfs_query_then_fetch') {
          throw new IllegalArgumentError(`No search type for [${searchType}]`);
        }
        // ES RestRequest.contentOrSourceParamParser.
        if (!hasBody(req)) throw new ParseError('request body or source parameter is required');
        const spec = parseRankEvalRequest(jsonBody(req));
        const body = await rankEval(search, req.params.index, spec, {
          resolve: resolveParams(req.query, { ignoreUnavailable: false, allowNoIndices: true }),
        });
        return { body };
      },
    },
  ];
}
