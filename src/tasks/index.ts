/**
 * tasks/ — long-running work as ES tasks: the registry (`<node>:<n>` ids), live status,
 * cooperative cancellation and rethrottling, and finished results kept through a result store
 * (the data directory, implemented by storage/). Imports only leaves (errors/, common/); knows
 * nothing about what a task does.
 */
export { Task, type TaskOptions, type JsonObject } from './task.js';
export { TaskManager, type TaskResultStore, type TaskResult } from './task-manager.js';
