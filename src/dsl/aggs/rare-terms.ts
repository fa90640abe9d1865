/**
 * `rare_terms` (ES RareTermsAggregationBuilder): `field`, `max_doc_count` (1 to 100, default 1),
 * `missing`, `include`/`exclude` as terms', `precision` (checked; counts are exact here, so it
 * changes nothing). Setter failures are wrapped as ObjectParser wraps them.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { doubleValue, fieldError, intValue, parsingField } from '../parse-helpers.js';
import type { AggNode, RareTermsAgg, TermsFilter } from './agg-nodes.js';
import { parseAggBody, readField, readMissing, requireField } from './agg-parse.js';
import { parseTermsFilter } from './terms.js';

/** RareTermsAggregationBuilder.MAX_MAX_DOC_COUNT. */
export const MAX_MAX_DOC_COUNT = 100;

export function parseRareTerms(name: string, body: unknown, subs: readonly AggNode[]): RareTermsAgg {
  let field: string | null = null;
  let maxDocCount = 1;
  let missing: RareTermsAgg['missing'] = null;
  let include: TermsFilter | null = null;
  let exclude: TermsFilter | null = null;
  parseAggBody('rare_terms', body, {
    field: (v) => { field = readField('rare_terms', v); },
    missing: (v) => { missing = readMissing('rare_terms', v); },
    include: (v) => { include = parseTermsFilter('include', v); },
    exclude: (v) => { exclude = parseTermsFilter('exclude', v); },
    max_doc_count: (v) => {
      const n = parsingField('rare_terms', 'max_doc_count', () => (typeof v === 'number' && Number.isSafeInteger(v) ? v : intValue(v)));
      if (n <= 0) throw fieldError('rare_terms', 'max_doc_count', `[max_doc_count] must be greater than 0. Found [${n}] in [${name}]`);
      // ES's message, its missing spaces included.
      if (n > MAX_MAX_DOC_COUNT) throw fieldError('rare_terms', 'max_doc_count', `[max_doc_count] must be smallerthan ${MAX_MAX_DOC_COUNT}in [${name}]`);
      maxDocCount = n;
    },
    precision: (v) => {
      const p = parsingField('rare_terms', 'precision', () => doubleValue(v));
      if (!(p >= 0.00001)) throw fieldError('rare_terms', 'precision', '[precision] must be greater than 0.00001');
    },
    format: () => { throw new IllegalArgumentError('[format] of [rare_terms] aggregations is not supported by this server yet'); },
  });
  return { kind: 'rare_terms', name, subs, field: requireField(field), maxDocCount, missing, include, exclude };
}
