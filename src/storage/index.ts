/**
 * storage/ — durability: the data directory layout, crash-safe cluster state, per-shard translogs
 * (group-committed fsyncs), checksummed segment and live-docs files, commit points, and the
 * reading side recovery uses. Imports index/ and leaves. Invariants: nothing is acknowledged
 * before its translog record is fsynced (request durability); every file is verified on load;
 * whole-file updates are atomic.
 */
export * from './atomic-file.js';
export * from './checksummed-file.js';
export * from './data-dir.js';
export * from './cluster-state-store.js';
export * from './shard-store.js';
export * from './translog.js';
export * from './task-results.js';
export * from './blob-repository.js';
