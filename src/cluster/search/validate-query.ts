/**
 * `GET|POST /{index}/_validate/query` (ES TransportValidateQueryAction): the query is planned for
 * every target index as a search would plan it; a planning failure makes it invalid. `explain`
 * shows each index's planned query as Lucene prints it, or the failure.
 */
import { EsError } from '../../errors/index.js';
import type { QueryNode } from '../../dsl/index.js';
import { describeQuery } from '../../search/index.js';
import type { IndicesService } from '../indices/indices-service.js';
import type { ResolveOptions } from '../indices/index-resolver.js';
import { planForIndex } from './explain.js';

export interface ValidateQueryOptions {
  readonly explain: boolean;
  readonly allShards: boolean;
  readonly resolve?: ResolveOptions;
}

export function validateQuery(indices: IndicesService, expression: string | undefined, query: QueryNode | null, opts: ValidateQueryOptions): Record<string, unknown> {
  const targets = indices.resolve(expression, opts.resolve);
  const explanations: Array<Record<string, unknown>> = [];
  let valid = true;
  let shards = 0;
  for (const index of targets) {
    // ES validates on one shard per index unless all_shards is set; the plan is the same on each.
    const copies = opts.allShards ? index.shards.length : 1;
    shards += copies;
    try {
      const { exec } = planForIndex(indices, index, query);
      for (let s = 0; s < copies; s++) explanations.push({ index: index.name, ...(opts.allShards ? { shard: s } : {}), valid: true, explanation: describeQuery(exec) });
    } catch (e) {
      if (!(e instanceof EsError)) throw e;
      valid = false;
      for (let s = 0; s < copies; s++) explanations.push({ index: index.name, ...(opts.allShards ? { shard: s } : {}), valid: false, error: `[${index.name}/${index.uuid}] ${e.type}: ${e.reason}` });
    }
  }
  return {
    _shards: { total: shards, successful: shards, failed: 0 },
    valid,
    ...(opts.explain ? { explanations } : {}),
  };
}
