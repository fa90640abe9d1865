/**
 * The trained model REST APIs (ES RestGetTrainedModelsAction, RestPutTrainedModelAction,
 * RestDeleteTrainedModelAction, RestGetTrainedModelsStatsAction, RestStart/Stop/Update
 * TrainedModelDeploymentAction, RestInferTrainedModelAction and its deprecated
 * `deployment/_infer` twin). Handlers parse and render; MlService does the work.
 */
import { IllegalArgumentError } from '../errors/index.js';
import { DEFAULT_INFER_TIMEOUT_MS, inferenceResultJson, onlyBuiltInModels, type MlService } from '../cluster/index.js';
import { parseInfer, parsePutModel, parseStartDeployment, parseStopBody, parseUpdateDeployment, START_PARAMS, timeParam } from '../dsl/index.js';
import { boolParam, intParam } from './params.js';
import type { RestRequest, RouteDef } from './rest.js';

const BASE = '/_ml/trained_models';
const INCLUDES = ['definition', 'definition_status', 'feature_importance_baseline', 'hyperparameters', 'total_feature_importance'];

/** `from` / `size` paging of list responses (ES PageParams defaults 0 / 100). */
function page<T>(req: RestRequest, items: readonly T[]): T[] {
  const from = intParam(req.query, 'from', 0);
  const size = intParam(req.query, 'size', 100);
  if (from < 0) throw new IllegalArgumentError('Parameter [from] cannot be < 0');
  if (size < 0) throw new IllegalArgumentError('Parameter [size] cannot be < 0');
  return items.slice(from, from + size);
}

function includes(req: RestRequest): Set<string> {
  const raw = req.query.include;
  const out = new Set<string>();
  if (raw === undefined || raw === '') return out;
  for (const i of raw.split(',').map((s) => s.trim())) {
    if (!INCLUDES.includes(i)) throw new IllegalArgumentError(`unknown value [${i}] for [include]; valid values are [${INCLUDES.join(', ')}]`);
    out.add(i);
  }
  return out;
}

export function mlRoutes(ml: MlService): RouteDef[] {
  const infer = async (req: RestRequest) => {
    const id = req.params.model_id;
    const field = ml.inputField(id);
    const body = parseInfer(req.body, field);
    const timeout = timeParam(req.query.timeout, 'timeout', DEFAULT_INFER_TIMEOUT_MS);
    const vectors = await ml.infer(id, body.texts, { timeoutMs: timeout.ms, timeoutText: timeout.text });
    const results = vectors.map((v) => inferenceResultJson(v, body.resultsField)).join(',');
    // A simulated deployment says so in every answer: its cost is BERT-base's, its vectors the built-in model's.
    const simulation = ml.simulation(id);
    return { body: `{"inference_results":[${results}]${simulation ? `,"simulation":${JSON.stringify(simulation)}` : ''}}` };
  };
  return [
    {
      methods: ['GET'],
      paths: [BASE, `${BASE}/:model_id`],
      params: ['allow_no_match', 'decompress_definition', 'exclude_generated', 'from', 'size', 'include', 'include_model_definition', 'tags'],
      authz: { action: 'cluster:monitor/xpack/ml/inference/get' },
      takesBody: false,
      handler: (req) => {
        const inc = includes(req);
        const res = ml.getModels(req.params.model_id, boolParam(req.query, 'allow_no_match', true), inc.has('definition_status'));
        return { body: { count: res.count, trained_model_configs: page(req, res.trained_model_configs) } };
      },
    },
    {
      methods: ['PUT'],
      paths: [`${BASE}/:model_id`],
      params: ['defer_definition_decompression', 'wait_for_completion', 'timeout'],
      authz: { action: 'cluster:admin/xpack/ml/inference/put' },
      handler: async (req) => {
        const id = req.params.model_id;
        const body = parsePutModel(req.body, id);
        if (body.hasDefinition) throw onlyBuiltInModels(id);
        boolParam(req.query, 'wait_for_completion', false);
        return { body: await ml.putModel(id, body.fieldNames, body.localPath) };
      },
    },
    {
      methods: ['DELETE'],
      paths: [`${BASE}/:model_id`],
      params: ['force', 'timeout'],
      authz: { action: 'cluster:admin/xpack/ml/inference/delete' },
      takesBody: false,
      handler: async (req) => {
        await ml.deleteModel(req.params.model_id, boolParam(req.query, 'force', false));
        return { body: { acknowledged: true } };
      },
    },
    {
      methods: ['GET'],
      paths: [`${BASE}/_stats`, `${BASE}/:model_id/_stats`],
      params: ['allow_no_match', 'from', 'size'],
      authz: { action: 'cluster:monitor/xpack/ml/inference/stats/get' },
      takesBody: false,
      handler: (req) => {
        const res = ml.stats(req.params.model_id, boolParam(req.query, 'allow_no_match', true));
        return { body: { count: res.count, trained_model_stats: page(req, res.trained_model_stats) } };
      },
    },
    {
      methods: ['POST'],
      paths: [`${BASE}/:model_id/deployment/_start`],
      params: START_PARAMS,
      authz: { action: 'cluster:admin/xpack/ml/trained_models/deployment/start' },
      handler: async (req) => {
        const { request, timeoutText } = parseStartDeployment(req.params.model_id, req.query, req.body);
        return { body: await ml.startDeployment(request, timeoutText) };
      },
    },
    {
      methods: ['POST'],
      paths: [`${BASE}/:model_id/deployment/_stop`],
      params: ['force', 'allow_no_match'],
      authz: { action: 'cluster:admin/xpack/ml/trained_models/deployment/stop' },
      handler: async (req) => {
        const fromBody = parseStopBody(req.body);
        boolParam(req.query, 'force', fromBody.force ?? false);
        await ml.stopDeployment(req.params.model_id, boolParam(req.query, 'allow_no_match', fromBody.allowNoMatch ?? true));
        return { body: { stopped: true } };
      },
    },
    {
      methods: ['POST'],
      paths: [`${BASE}/:model_id/deployment/_update`],
      params: ['number_of_allocations'],
      authz: { action: 'cluster:admin/xpack/ml/trained_models/deployment/update' },
      handler: async (req) => ({ body: await ml.updateDeployment(req.params.model_id, parseUpdateDeployment(req.query, req.body)) }),
    },
    {
      methods: ['POST'],
      paths: [`${BASE}/:model_id/_infer`],
      params: ['timeout'],
      authz: { action: 'cluster:monitor/xpack/ml/inference/infer' },
      handler: infer,
    },
    {
      methods: ['POST'],
      paths: [`${BASE}/:model_id/deployment/_infer`],
      params: ['timeout'],
      authz: { action: 'cluster:monitor/xpack/ml/trained_models/deployment/infer' },
      handler: infer,
    },
  ];
}
