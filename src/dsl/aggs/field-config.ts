/**
 * One values source of an aggregation over several fields (ES MultiValuesSourceFieldConfig, whose
 * ObjectParser is named `field_config`): `weighted_avg`'s `value` and `weight`, `top_metrics`'
 * `metrics`, `multi_terms`' `terms`. Scripts are not built here, so `field` is required.
 */
import { IllegalArgumentError, XContentParseError } from '../../errors/index.js';
import { tokenName } from '../json-body.js';
import { isObject, parsingField } from '../parse-helpers.js';
import type { FieldConfig } from './agg-nodes.js';
import { parseAggBody, readField, readMissing } from './agg-parse.js';

/**
 * `owner`'s member `member` (an object, else ObjectParser's "doesn't support values of type"); its
 * own failures come out as ObjectParser wraps a field's: "[owner] failed to parse field [member]".
 */
export function parseFieldConfig(owner: string, member: string, v: unknown): FieldConfig {
  if (!isObject(v)) throw new XContentParseError(`[${owner}] ${member} doesn't support values of type: ${tokenName(v)}`);
  return parsingField(owner, member, () => {
    let field: string | null = null;
    let missing: FieldConfig['missing'] = null;
    parseAggBody('field_config', v, {
      field: (f) => { field = readField('field_config', f); },
      missing: (m) => { missing = readMissing('field_config', m); },
      script: () => { throw new IllegalArgumentError(`[script] of [${owner}] aggregations is not supported by this server yet`); },
    });
    // MultiValuesSourceFieldConfig.Builder.build.
    if (field === null || field === '') throw new IllegalArgumentError('[field] and [script] cannot both be null.  Please specify one or the other.');
    return { field, missing };
  });
}
