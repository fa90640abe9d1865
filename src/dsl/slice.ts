/**
 * `slice` of a scroll or point-in-time search (ES SliceBuilder's ObjectParser): `id` and `max`
 * (ints; ES's setters check them in body order: id ≥ 0, max > 1, id < max), optional `field`.
 * Whether the search may slice (scroll or point in time), `index.max_slices_per_scroll` and what
 * the field must be are checked later, as ES checks them (request validation, then per shard).
 */
import { EsError, IllegalArgumentError, XContentParseError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { forEachEntry, intValue } from './parse-helpers.js';

export interface SliceRequest {
  /** null: the default partition (`_id` for a scroll, the documents themselves for a point in time). */
  readonly field: string | null;
  readonly id: number;
  readonly max: number;
}

const OWNER = 'slice';

export function parseSlice(v: Record<string, unknown>): SliceRequest {
  let field: string | null = null;
  // SliceBuilder's unset values.
  let id = -1;
  let max = -1;
  forEachEntry(v, (k, value) => {
    switch (k) {
      case 'field':
        // declareString: a string token only.
        if (typeof value !== 'string') throw new XContentParseError(`[${OWNER}] field doesn't support values of type: ${tokenName(value)}`);
        field = value;
        break;
      case 'id': {
        const n = readInt(k, value);
        if (n < 0) throw invalid(k, 'id must be greater than or equal to 0');
        if (max !== -1 && n >= max) throw invalid(k, 'max must be greater than id');
        id = n;
        break;
      }
      case 'max': {
        const n = readInt(k, value);
        if (n <= 1) throw invalid(k, 'max must be greater than 1');
        if (id !== -1 && id >= n) throw invalid(k, 'max must be greater than id');
        max = n;
        break;
      }
      default:
        throw new XContentParseError(`[${OWNER}] unknown field [${k}]`, undefined, 'key');
    }
  });
  // ES leaves an unset id or max at -1 and fails later, unhelpfully; the setters' own checks say what is wrong.
  if (id === -1) throw invalid('id', 'id must be greater than or equal to 0');
  if (max === -1) throw invalid('max', 'max must be greater than 1');
  return { field, id, max };
}

/** declareInt: a number or a numeric string (coerced), else ObjectParser's type error; a bad value wraps its cause. */
function readInt(k: string, value: unknown): number {
  if (typeof value !== 'number' && typeof value !== 'string') throw new XContentParseError(`[${OWNER}] ${k} doesn't support values of type: ${tokenName(value)}`);
  try {
    return intValue(value);
  } catch (e) {
    if (e instanceof EsError) throw new XContentParseError(`[${OWNER}] failed to parse field [${k}]`, e);
    throw e;
  }
}

function invalid(k: string, reason: string): XContentParseError {
  return new XContentParseError(`[${OWNER}] failed to parse field [${k}]`, new IllegalArgumentError(reason));
}
