/**
 * `GET|POST /_analyze` and `/{index}/_analyze` (ES RestAnalyzeAction): the tokens an analyzer,
 * a field, a normalizer or ad-hoc components make of a text, optionally stage by stage.
 */
import { parseAnalyzeRequest } from '../dsl/index.js';
import type { IndicesService } from '../cluster/index.js';
import { hasBody, jsonObjectBody, type RouteDef } from './rest.js';

export function analyzeRoutes(indices: IndicesService): RouteDef[] {
  return [
    {
      methods: ['GET', 'POST'],
      paths: ['/_analyze', '/:index/_analyze'],
      authz: { action: 'indices:admin/analyze' },
      queryBody: true,
      handler: (req) => {
        const body = !hasBody(req) ? {} : jsonObjectBody(req);
        const name = req.params.index ?? null;
        return { body: indices.analyze(name, parseAnalyzeRequest(body, name)) };
      },
    },
  ];
}
