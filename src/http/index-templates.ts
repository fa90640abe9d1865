/**
 * Composable index templates and component templates (ES RestPutComposableIndexTemplateAction,
 * RestGetComposableIndexTemplateAction, RestDeleteComposableIndexTemplateAction, the component
 * template actions and RestSimulateIndexTemplateAction). Changes are durable before they are
 * acknowledged; templates apply to indices created afterwards, explicitly or by a write.
 */
import { ActionRequestValidationError } from '../errors/index.js';
import { parseBody, parseJsonObject, type JsonObject } from '../dsl/index.js';
import type { IndexTemplateService } from '../cluster/index.js';
import { boolParam } from './params.js';
import type { RestRequest, RestResponse, RouteDef } from './rest.js';

const MASTER = ['master_timeout', 'timeout'];
const GET_PARAMS = ['master_timeout', 'local', 'flat_settings', 'include_defaults'];

function requireBody(req: RestRequest): JsonObject {
  if (req.body === null) throw new ActionRequestValidationError(['request body is required']);
  const text = req.body;
  return parseBody(() => parseJsonObject(text));
}

function getResponse(req: RestRequest, get: (flat: boolean) => { status: number; body: JsonObject }): RestResponse {
  boolParam(req.query, 'include_defaults', false);
  const { status, body } = get(boolParam(req.query, 'flat_settings', false));
  return { status, body };
}

export function indexTemplateRoutes(templates: IndexTemplateService): RouteDef[] {
  return [
    {
      methods: ['PUT', 'POST'],
      paths: ['/_index_template/:name'],
      authz: { action: 'indices:admin/index_template/put' },
      params: [...MASTER, 'create', 'cause'],
      handler: async (req) => {
        await templates.putIndexTemplate(req.params.name, requireBody(req), boolParam(req.query, 'create', false));
        return { body: { acknowledged: true } };
      },
    },
    {
      methods: ['GET'],
      paths: ['/_index_template', '/_index_template/:name'],
      authz: { action: 'indices:admin/index_template/get' },
      params: GET_PARAMS,
      handler: (req) => getResponse(req, (flat) => templates.getIndexTemplates(req.params.name, flat)),
    },
    {
      methods: ['HEAD'],
      paths: ['/_index_template/:name'],
      authz: { action: 'indices:admin/index_template/get' },
      params: GET_PARAMS,
      handler: (req) => {
        try {
          return { status: templates.getIndexTemplates(req.params.name).status };
        } catch {
          return { status: 404 };
        }
      },
    },
    {
      methods: ['DELETE'],
      paths: ['/_index_template/:name'],
      authz: { action: 'indices:admin/index_template/delete' },
      params: MASTER,
      handler: async (req) => {
        await templates.deleteIndexTemplates(req.params.name);
        return { body: { acknowledged: true } };
      },
    },
    {
      methods: ['POST'],
      paths: ['/_index_template/_simulate_index/:name'],
      authz: { action: 'indices:admin/index_template/simulate_index' },
      params: [...MASTER, 'include_defaults', 'cause', 'create'],
      handler: (req) => ({ body: templates.simulateIndex(req.params.name) }),
    },
    {
      methods: ['PUT', 'POST'],
      paths: ['/_component_template/:name'],
      authz: { action: 'cluster:admin/component_template/put' },
      params: [...MASTER, 'create', 'cause'],
      handler: async (req) => {
        await templates.putComponentTemplate(req.params.name, requireBody(req), boolParam(req.query, 'create', false));
        return { body: { acknowledged: true } };
      },
    },
    {
      methods: ['GET'],
      paths: ['/_component_template', '/_component_template/:name'],
      authz: { action: 'cluster:admin/component_template/get' },
      params: GET_PARAMS,
      handler: (req) => getResponse(req, (flat) => templates.getComponentTemplates(req.params.name, flat)),
    },
    {
      methods: ['HEAD'],
      paths: ['/_component_template/:name'],
      authz: { action: 'cluster:admin/component_template/get' },
      params: GET_PARAMS,
      handler: (req) => {
        try {
          return { status: templates.getComponentTemplates(req.params.name).status };
        } catch {
          return { status: 404 };
        }
      },
    },
    {
      methods: ['DELETE'],
      paths: ['/_component_template/:name'],
      authz: { action: 'cluster:admin/component_template/delete' },
      params: MASTER,
      handler: async (req) => {
        await templates.deleteComponentTemplates(req.params.name);
        return { body: { acknowledged: true } };
      },
    },
  ];
}
