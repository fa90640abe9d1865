/**
 * `GET|POST /_analyze` and `/{index}/_analyze` (ES RestAnalyzeAction): the tokens an analyzer,
 * a field, a normalizer or ad-hoc components make of a text, optionally stage by stage.
 */
import { IllegalArgumentError } from '../errors/index.js';
import { parseAnalyzeRequest, parseJsonObject } from '../dsl/index.js';
import { analyzeText } from '../index/index.js';
import type { IndicesService } from '../cluster/index.js';
import type { RouteDef } from './rest.js';

export function analyzeRoutes(indices: IndicesService): RouteDef[] {
  return [
    {
      methods: ['GET', 'POST'],
      paths: ['/_analyze', '/:index/_analyze'],
      authz: { action: 'indices:admin/analyze' },
      handler: (req) => {
        const body = req.body === null ? {} : parseJsonObject(req.body);
        const name = req.params.index ?? null;
        const request = parseAnalyzeRequest(body, name);
        let mapping = null;
        if (name !== null) {
          // One concrete index (an alias must point at exactly one), as ES's single-shard request.
          const resolved = indices.resolve(name, { ignoreUnavailable: false, allowNoIndices: false, expandHidden: false });
          if (resolved.length !== 1) throw new IllegalArgumentError(`[${name}] must resolve to a single index, got [${resolved.length}]`);
          mapping = resolved[0].resolvedMapping;
        }
        return { body: analyzeText(request, mapping) };
      },
    },
  ];
}
