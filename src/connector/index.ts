/**
 * threadsearch's browser connector for Search UI (npm entry point `threadsearch/connector`,
 * bundled to `dist/connector/threadsearch-connector.js`).
 *
 * Invariants: runs in browsers and in Node ≥ 20 through global `fetch`; imports no Node built-in
 * and nothing of the server (the architecture test checks both); the request bodies follow
 * Elastic's connector 1.24.2 except where ../../shared/reference/search-ui-connector.md §0 says.
 */
export { ThreadsearchConnector, ThreadsearchConnector as default } from './connector.js';
export { ProxyConnector, type ProxyConnectorConfig } from './proxy-connector.js';
export { ConnectorConfigError, type ConnectorConfig } from './config.js';
export { ConnectorError } from './transport.js';
export type * from './types.js';
