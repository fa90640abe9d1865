/**
 * `GET|PUT /_cluster/settings` (ES RestClusterGetSettingsAction, RestClusterUpdateSettingsAction):
 * the node's dynamic settings (cluster/cluster-settings.ts), nested or with `flat_settings`, and
 * with `include_defaults` every node setting in effect. Load-test tools (Rally's `put-settings`)
 * and operators' scripts call both.
 */
import { flattenClusterSettings, renderClusterSettings as render, type ClusterSettingsService } from '../cluster/index.js';
import { ActionRequestValidationError, XContentParseError } from '../errors/index.js';
import { boolParam } from './params.js';
import { ES_VERSION } from './root.js';
import { hasBody, jsonObjectBody, type RouteDef } from './rest.js';

const MASTER = ['timeout', 'master_timeout'];

/** ES 8's deprecation warning for a request that sets transient settings. */
const TRANSIENT_WARNING = `299 Elasticsearch-${ES_VERSION.number} "[transient settings removal] Updating cluster settings through transientSettings is deprecated. Use persistent settings instead."`;

export function clusterSettingsRoutes(settings: ClusterSettingsService): RouteDef[] {
  return [
    {
      methods: ['GET'],
      paths: ['/_cluster/settings'],
      authz: { action: 'cluster:monitor/settings' },
      takesBody: false,
      params: [...MASTER, 'flat_settings', 'include_defaults', 'local'],
      handler: (req) => {
        const flat = boolParam(req.query, 'flat_settings', false);
        const { persistent, transient } = settings.view();
        const body: Record<string, unknown> = { persistent: render(persistent, flat), transient: render(transient, flat) };
        if (boolParam(req.query, 'include_defaults', false)) body.defaults = render(settings.defaults(), flat);
        return { body };
      },
    },
    {
      methods: ['PUT'],
      paths: ['/_cluster/settings'],
      authz: { action: 'cluster:admin/settings/update' },
      params: [...MASTER, 'flat_settings'],
      handler: async (req) => {
        const body = hasBody(req) ? jsonObjectBody(req) : {};
        for (const key of Object.keys(body)) {
          if (key !== 'persistent' && key !== 'transient') throw new XContentParseError(`[cluster_update_settings_request] unknown field [${key}]`, undefined, 'key');
        }
        const persistent = flattenClusterSettings('persistent', body.persistent);
        const transient = flattenClusterSettings('transient', body.transient);
        if (persistent.size === 0 && transient.size === 0) throw new ActionRequestValidationError(['no settings to update']);
        const changed = await settings.update(persistent, transient);
        const flat = boolParam(req.query, 'flat_settings', false);
        return {
          body: { acknowledged: true, persistent: render(changed.persistent, flat), transient: render(changed.transient, flat) },
          ...(transient.size > 0 ? { headers: { Warning: TRANSIENT_WARNING } } : {}),
        };
      },
    },
  ];
}
