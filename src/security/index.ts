/**
 * security/ — API keys, authentication and privileges (ES x-pack security, API-key realm only).
 * A leaf: imports errors/ and common/ only; persistence goes through a callback the composition
 * root wires to the cluster state.
 */
export * from './privileges.js';
export * from './role-descriptors.js';
export * from './permission.js';
export * from './credentials.js';
export * from './api-key-service.js';
