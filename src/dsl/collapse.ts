/**
 * `collapse` (ES CollapseBuilder's ObjectParser): `field` to collapse on, `inner_hits` (one object or
 * an array of them, each needing a `name`) and `max_concurrent_group_searches` (positive). What the
 * field must be (mapped, keyword or numeric, with doc values) is checked per index when the search
 * is planned, as ES checks it per shard (CollapseBuilder.build).
 */
import { IllegalArgumentError, ParsingError, XContentParseError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { forEachEntry, intValue, isObject, parsingField } from './parse-helpers.js';
import { parseInnerHits, refuseNotYet, type CollapseInnerHits } from './collapse-inner-hits.js';

export interface CollapseRequest {
  /** null when the body names none: ES fails the shards with "no collapse field specified". */
  readonly field: string | null;
  /** `inner_hits`: each collapsed hit's group searched once per definition (ES ExpandSearchPhase). */
  readonly innerHits: readonly CollapseInnerHits[];
  /** `max_concurrent_group_searches`; 0 = not given: how many group searches run at once. */
  readonly maxConcurrentGroupSearches: number;
}

const OWNER = 'collapse';

export function parseCollapse(v: Record<string, unknown>): CollapseRequest {
  let field: string | null = null;
  let innerHits: CollapseInnerHits[] = [];
  let maxConcurrentGroupSearches = 0;
  forEachEntry(v, (k, value) => {
    switch (k) {
      case 'field':
        // ObjectParser's STRING value type: a string token only.
        if (typeof value !== 'string') throw new XContentParseError(`[${OWNER}] field doesn't support values of type: ${tokenName(value)}`);
        if (value === '') throw new XContentParseError(`[${OWNER}] failed to parse field [${k}]`, new IllegalArgumentError('field name is null or empty'));
        field = value;
        break;
      case 'max_concurrent_group_searches': {
        if (typeof value !== 'number' && typeof value !== 'string') throw new XContentParseError(`[${OWNER}] ${k} doesn't support values of type: ${tokenName(value)}`);
        const n = parsingField(OWNER, k, () => intValue(value));
        if (n < 1) throw new XContentParseError(`[${OWNER}] failed to parse field [${k}]`, new IllegalArgumentError('maxConcurrentGroupRequests` must be positive'));
        maxConcurrentGroupSearches = n;
        break;
      }
      case 'inner_hits':
        if (!Array.isArray(value) && !isObject(value)) throw new XContentParseError(`[${OWNER}] inner_hits doesn't support values of type: ${tokenName(value)}`);
        // What is not built is refused as such, not as a parse failure.
        refuseNotYet(value);
        innerHits = parsingField(OWNER, k, () => parseInnerHitsList(value));
        break;
      default:
        throw new XContentParseError(`[${OWNER}] unknown field [${k}]`, undefined, 'key');
    }
  });
  return { field, innerHits, maxConcurrentGroupSearches };
}

/** `inner_hits`: an object or an array of objects, each with a `name` (CollapseBuilder.setInnerHits). */
function parseInnerHitsList(v: unknown): CollapseInnerHits[] {
  const items = Array.isArray(v) ? v : [v];
  return items.map((item) => {
    if (!isObject(item)) throw new ParsingError('Invalid token in inner_hits array');
    const parsed = parseInnerHits(item);
    if (parsed.name === null) throw new IllegalArgumentError('inner_hits must have a [name]; set the [name] field in the inner_hits definition');
    return { ...parsed, name: parsed.name };
  });
}
