/**
 * `top_hits` (ES TopHitsAggregationBuilder.parse): the best documents of each bucket, as search
 * hits. Its body is parsed by hand in ES, not by ObjectParser: a member is taken only with the
 * token kind ES expects for it, anything else is "Unknown key for a <TOKEN> in [<key>]."
 * `highlight`, `script_fields`, `explain: true` and named `stored_fields` are refused clearly.
 */
import { IllegalArgumentError, ParsingError } from '../../errors/index.js';
import { tokenName } from '../json-body.js';
import { booleanValue, forEachEntry, intValue, isObject } from '../parse-helpers.js';
import { parseFieldsAndFormats } from '../fields-and-formats.js';
import { parseSort } from '../sort.js';
import { FETCH_ALL, parseSourceFilter } from '../source-filter.js';
import type { AggNode, TopHitsAgg } from './agg-nodes.js';

const VALUE = 1;
const OBJECT = 2;
const ARRAY = 4;
/** The token kinds TopHitsAggregationBuilder.parse takes per member. */
const MEMBER_TOKENS: Record<string, number> = {
  from: VALUE, size: VALUE, version: VALUE, seq_no_primary_term: VALUE, explain: VALUE, track_scores: VALUE,
  _source: VALUE | OBJECT | ARRAY, stored_fields: VALUE | ARRAY, sort: VALUE | OBJECT | ARRAY,
  script_fields: OBJECT, highlight: OBJECT, docvalue_fields: ARRAY, fields: ARRAY,
};

/** The token's kind; `null` is none (ES's VALUE_NULL is not a value token), so no member takes it. */
function tokenKind(v: unknown): number {
  if (v === null) return 0;
  if (Array.isArray(v)) return ARRAY;
  return isObject(v) ? OBJECT : VALUE;
}

function notYet(member: string): IllegalArgumentError {
  return new IllegalArgumentError(`[${member}] of [top_hits] aggregations is not supported by this server yet`);
}

export function parseTopHits(name: string, body: unknown, subs: readonly AggNode[]): TopHitsAgg {
  if (!isObject(body)) throw new ParsingError(`Expected [START_OBJECT] under [top_hits], but got a [${tokenName(body)}]`);
  let from = 0;
  let size = 3;
  let node: Omit<TopHitsAgg, 'kind' | 'name' | 'subs' | 'from' | 'size'> = {
    sort: null, source: FETCH_ALL, storedFieldsNone: false, trackScores: false, version: false, seqNoPrimaryTerm: false, fields: null, docvalueFields: null,
  };
  forEachEntry(body, (k, v) => {
    const allowed = Object.prototype.hasOwnProperty.call(MEMBER_TOKENS, k) ? MEMBER_TOKENS[k] : 0;
    if ((allowed & tokenKind(v)) === 0) throw new ParsingError(`Unknown key for a ${tokenName(v)} in [${k}].`);
    switch (k) {
      case 'from':
        from = intValue(v);
        if (from < 0) throw new IllegalArgumentError(`[from] must be greater than or equal to 0. Found [${from}] in [${name}]`);
        break;
      case 'size':
        size = intValue(v);
        if (size < 0) throw new IllegalArgumentError(`[size] must be greater than or equal to 0. Found [${size}] in [${name}]`);
        break;
      case 'version': node = { ...node, version: booleanValue(v) }; break;
      case 'seq_no_primary_term': node = { ...node, seqNoPrimaryTerm: booleanValue(v) }; break;
      case 'track_scores': node = { ...node, trackScores: booleanValue(v) }; break;
      case 'explain': if (booleanValue(v)) throw notYet('explain'); break;
      case '_source': node = { ...node, source: parseSourceFilter(v) }; break;
      case 'sort': node = { ...node, sort: [...(node.sort ?? []), ...parseSort(v)] }; break;
      case 'stored_fields': {
        const names = Array.isArray(v) ? v : [v];
        // `_none_` drops `_source` as the search's does; loading named stored fields is not built.
        if (names.length === 1 && names[0] === '_none_') node = { ...node, storedFieldsNone: true };
        else throw notYet('stored_fields');
        break;
      }
      case 'fields': node = { ...node, fields: [...(node.fields ?? []), ...parseFieldsAndFormats(v)] }; break;
      case 'docvalue_fields': node = { ...node, docvalueFields: [...(node.docvalueFields ?? []), ...parseFieldsAndFormats(v)] }; break;
      default: throw notYet(k);
    }
  });
  return { kind: 'top_hits', name, subs, from, size, ...node };
}
