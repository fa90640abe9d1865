/** `GET /` and `HEAD /` (ES RestMainAction): node and version information. */
import type { RouteDef } from './rest.js';

export interface NodeInfo {
  readonly nodeName: string;
  readonly clusterName: string;
  readonly clusterUuid: string;
}

/**
 * The ES version we report. 8.15 is the first with everything this server speaks (the
 * `sparse_vector` query, retrievers); clients and tools branch on it.
 */
export const ES_VERSION = {
  number: '8.15.0',
  build_flavor: 'default',
  build_type: 'tar',
  build_hash: '1a77947f34deddb41af25e6f0ddb8e830159c179',
  build_date: '2024-08-05T10:05:34.233336849Z',
  build_snapshot: false,
  lucene_version: '9.11.1',
  minimum_wire_compatibility_version: '7.17.0',
  minimum_index_compatibility_version: '7.0.0',
};

/** What `GET /` says when security is off: a body member and a `Warning` header clients surface. */
export const SECURITY_DISABLED_WARNING = 'security is disabled (--no-security): every request is allowed without credentials';

export function rootRoutes(node: NodeInfo, options: { securityEnabled: boolean }): RouteDef[] {
  const warning = options.securityEnabled ? {} : { warning: SECURITY_DISABLED_WARNING };
  const headers = options.securityEnabled ? undefined : { Warning: `299 Elasticsearch-${ES_VERSION.number} "${SECURITY_DISABLED_WARNING}"` };
  return [
    {
      methods: ['GET'],
      paths: ['/'],
      authz: { action: 'cluster:monitor/main' },
      takesBody: false,
      handler: () => ({
        body: {
          name: node.nodeName,
          cluster_name: node.clusterName,
          cluster_uuid: node.clusterUuid,
          version: ES_VERSION,
          tagline: 'You Know, for Search',
          ...warning,
        },
        headers,
      }),
    },
    { methods: ['HEAD'], paths: ['/'], authz: { action: 'cluster:monitor/main' }, handler: () => ({ status: 200 }) },
  ];
}
