/**
 * Field discovery: `GET|POST /_field_caps` and `/{index}/_field_caps` (ES RestFieldCapabilitiesAction)
 * and `GET /_mapping/field/{fields}`, `/{index}/_mapping/field/{fields}` (ES RestGetFieldMappingAction).
 */
import { ActionRequestValidationError } from '../errors/index.js';
import { isObject, readStringArray } from '../dsl/index.js';
import { fieldCapabilities, fieldMappings, type IndicesService } from '../cluster/index.js';
import { boolParam, INDICES_OPTIONS, resolveParams } from './params.js';
import { hasBody, jsonBody, type RestRequest, type RouteDef } from './rest.js';

/** `fields` from the URL, else from the body (`{"fields": [...]}`), as ES merges them. */
function requestedFields(req: RestRequest): string[] {
  const out = req.query.fields !== undefined ? req.query.fields.split(',').map((f) => f.trim()).filter(Boolean) : [];
  if (hasBody(req)) {
    const body = jsonBody(req);
    if (isObject(body) && body.fields !== undefined) out.push(...readStringArray('field_caps', 'fields', body.fields));
  }
  if (out.length === 0) throw new ActionRequestValidationError(["specified fields can't be null or empty"]);
  return out;
}

export function fieldCapsRoutes(indices: IndicesService): RouteDef[] {
  return [
    {
      methods: ['GET', 'POST'],
      paths: ['/_field_caps', '/:index/_field_caps'],
      queryBody: true,
      authz: { action: 'indices:data/read/field_caps' },
      params: [...INDICES_OPTIONS, 'fields', 'include_unmapped', 'filters', 'types', 'include_empty_fields'],
      handler: (req) => {
        const fields = requestedFields(req);
        const targets = indices.resolve(req.params.index, resolveParams(req.query, { ignoreUnavailable: false, allowNoIndices: true }));
        return { body: fieldCapabilities(targets, fields, boolParam(req.query, 'include_unmapped', false)) };
      },
    },
    {
      methods: ['GET'],
      paths: ['/_mapping/field/:fields', '/:index/_mapping/field/:fields'],
      authz: { action: 'indices:admin/mappings/fields/get' },
      params: [...INDICES_OPTIONS, 'include_defaults', 'local'],
      handler: (req) => {
        boolParam(req.query, 'include_defaults', false);
        const patterns = req.params.fields.split(',').map((f) => f.trim()).filter(Boolean);
        const out: Record<string, unknown> = {};
        for (const index of indices.resolve(req.params.index, resolveParams(req.query, { ignoreUnavailable: false, allowNoIndices: true }))) {
          out[index.name] = { mappings: fieldMappings(index, patterns) };
        }
        return { body: out };
      },
    },
  ];
}
