/**
 * Composable index templates and component templates (ES RestPutComposableIndexTemplateAction,
 * RestGetComposableIndexTemplateAction, RestDeleteComposableIndexTemplateAction, the component
 * template actions and RestSimulateIndexTemplateAction). Changes are durable before they are
 * acknowledged; templates apply to indices created afterwards, explicitly or by a write.
 */
import { ActionRequestValidationError, EsError } from '../errors/index.js';
import { parseBody, type JsonObject } from '../dsl/index.js';
import type { IndexTemplateService } from '../cluster/index.js';
import { boolParam } from './params.js';
import { hasBody, jsonObjectBody, type RestRequest, type RestResponse, type RouteDef } from './rest.js';

const MASTER = ['master_timeout', 'timeout'];
const GET_PARAMS = ['master_timeout', 'local', 'flat_settings', 'include_defaults'];

function requireBody(req: RestRequest): JsonObject {
  if (!hasBody(req)) throw new ActionRequestValidationError(['request body is required']);
  return parseBody(() => jsonObjectBody(req));
}

function getResponse(req: RestRequest, get: (flat: boolean) => { status: number; body: JsonObject }): RestResponse {
  boolParam(req.query, 'include_defaults', false);
  const { status, body } = get(boolParam(req.query, 'flat_settings', false));
  return { status, body };
}

/** What one kind of template offers the routes: put, get (an expression, or all) and delete. */
interface TemplateStore {
  put(name: string, body: JsonObject, create: boolean): Promise<void>;
  get(expression: string | undefined, flatSettings?: boolean): { status: number; body: JsonObject };
  delete(expression: string): Promise<void>;
}

/** PUT/POST, GET, HEAD and DELETE on `/<base>` and `/<base>/:name`, as ES registers them for both kinds. */
function templateCrudRoutes(base: string, actionPrefix: string, store: TemplateStore): RouteDef[] {
  return [
    {
      methods: ['PUT', 'POST'],
      paths: [`${base}/:name`],
      authz: { action: `${actionPrefix}/put` },
      params: [...MASTER, 'create', 'cause'],
      handler: async (req) => {
        await store.put(req.params.name, requireBody(req), boolParam(req.query, 'create', false));
        return { body: { acknowledged: true } };
      },
    },
    {
      methods: ['GET'],
      paths: [base, `${base}/:name`],
      authz: { action: `${actionPrefix}/get` },
      params: GET_PARAMS,
      handler: (req) => getResponse(req, (flat) => store.get(req.params.name, flat)),
    },
    {
      methods: ['HEAD'],
      paths: [`${base}/:name`],
      authz: { action: `${actionPrefix}/get` },
      params: GET_PARAMS,
      handler: (req) => {
        try {
          return { status: store.get(req.params.name).status };
        } catch (e) {
          // A missing template is a 404 without a body; anything else fails as it would on GET.
          if (e instanceof EsError && e.status === 404) return { status: 404 };
          throw e;
        }
      },
    },
    {
      methods: ['DELETE'],
      paths: [`${base}/:name`],
      authz: { action: `${actionPrefix}/delete` },
      params: MASTER,
      handler: async (req) => {
        await store.delete(req.params.name);
        return { body: { acknowledged: true } };
      },
    },
  ];
}

export function indexTemplateRoutes(templates: IndexTemplateService): RouteDef[] {
  return [
    ...templateCrudRoutes('/_index_template', 'indices:admin/index_template', {
      put: (name, body, create) => templates.putIndexTemplate(name, body, create),
      get: (expression, flat) => templates.getIndexTemplates(expression, flat),
      delete: (expression) => templates.deleteIndexTemplates(expression),
    }),
    {
      methods: ['POST'],
      paths: ['/_index_template/_simulate_index/:name'],
      authz: { action: 'indices:admin/index_template/simulate_index' },
      params: [...MASTER, 'include_defaults', 'cause', 'create'],
      handler: (req) => ({ body: templates.simulateIndex(req.params.name) }),
    },
    ...templateCrudRoutes('/_component_template', 'cluster:admin/component_template', {
      put: (name, body, create) => templates.putComponentTemplate(name, body, create),
      get: (expression, flat) => templates.getComponentTemplates(expression, flat),
      delete: (expression) => templates.deleteComponentTemplates(expression),
    }),
  ];
}
