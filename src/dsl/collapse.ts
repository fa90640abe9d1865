/**
 * `collapse` (ES CollapseBuilder's ObjectParser): `field` to collapse on, `inner_hits` (one object or
 * an array of them, each needing a `name`) and `max_concurrent_group_searches` (positive). What the
 * field must be (mapped, keyword or numeric, with doc values) is checked per index when the search
 * is planned, as ES checks it per shard (CollapseBuilder.build).
 */
import { EsError, IllegalArgumentError, ParsingError, XContentParseError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { fieldError, forEachEntry, intValue, isObject, readString } from './parse-helpers.js';

export interface CollapseRequest {
  /** null when the body names none: ES fails the shards with "no collapse field specified". */
  readonly field: string | null;
  /** `inner_hits` given (expanding groups is not built here: the search refuses it). */
  readonly innerHits: number;
  /** `max_concurrent_group_searches`; 0 = not given. Accepted; it only throttles ES's inner_hits expansion. */
  readonly maxConcurrentGroupSearches: number;
}

const OWNER = 'collapse';

export function parseCollapse(v: Record<string, unknown>): CollapseRequest {
  let field: string | null = null;
  let innerHits = 0;
  let maxConcurrentGroupSearches = 0;
  forEachEntry(v, (k, value) => {
    switch (k) {
      case 'field':
        if (value === null || isObject(value) || Array.isArray(value)) throw fieldError(OWNER, k, `[${k}] expected a string but found [${tokenName(value)}]`);
        field = readString(OWNER, k, value);
        if (field === '') throw new XContentParseError(`[${OWNER}] failed to parse field [${k}]`, new IllegalArgumentError('field name is null or empty'));
        break;
      case 'max_concurrent_group_searches': {
        if (typeof value !== 'number' && typeof value !== 'string') throw fieldError(OWNER, k, `[${k}] expected a number but found [${tokenName(value)}]`);
        const n = wrapped(k, () => intValue(value));
        if (n < 1) throw new XContentParseError(`[${OWNER}] failed to parse field [${k}]`, new IllegalArgumentError('maxConcurrentGroupRequests` must be positive'));
        maxConcurrentGroupSearches = n;
        break;
      }
      case 'inner_hits':
        innerHits = countInnerHits(value);
        break;
      default:
        throw new XContentParseError(`[${OWNER}] unknown field [${k}]`, undefined, 'key');
    }
  });
  return { field, innerHits, maxConcurrentGroupSearches };
}

/** ObjectParser's wrapping of a value's own failure: "[collapse] failed to parse field [k]" caused by it. */
function wrapped<T>(k: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof EsError) throw new XContentParseError(`[${OWNER}] failed to parse field [${k}]`, e);
    throw e;
  }
}

/** `inner_hits`: an object or an array of objects, each with a `name` (CollapseBuilder.setInnerHits). */
function countInnerHits(v: unknown): number {
  const items = Array.isArray(v) ? v : [v];
  if (!Array.isArray(v) && !isObject(v)) throw fieldError(OWNER, 'inner_hits', `[inner_hits] expected an object or an array but found [${tokenName(v)}]`);
  for (const item of items) {
    if (!isObject(item)) throw new ParsingError('Invalid token in inner_hits array');
    if (typeof item.name !== 'string') {
      throw new XContentParseError(`[${OWNER}] failed to parse field [inner_hits]`, new IllegalArgumentError('inner_hits must have a [name]; set the [name] field in the inner_hits definition'));
    }
  }
  return items.length;
}
