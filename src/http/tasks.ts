/**
 * The task management API (ES RestGetTaskAction, RestListTasksAction, RestCancelTasksAction):
 * one task's state or stored result, the running tasks grouped by node (or `group_by=none|parents`),
 * and cooperative cancellation.
 */
import { IllegalArgumentError } from '../errors/index.js';
import { parseTimeValue } from '../common/time-value.js';
import type { Task, TaskManager } from '../tasks/index.js';
import { boolParam } from './params.js';
import type { RouteDef } from './rest.js';

/** How the node appears in `_tasks` listings. */
export interface TaskNodeInfo {
  readonly id: string;
  readonly name: string;
}

/** ES ListTasksResponse grouped by nodes. */
export function renderTaskNodes(node: TaskNodeInfo, tasks: readonly Task[], detailed: boolean): Record<string, unknown> {
  if (tasks.length === 0) return { nodes: {} };
  return {
    nodes: {
      [node.id]: {
        name: node.name, transport_address: '127.0.0.1:9300', host: '127.0.0.1', ip: '127.0.0.1:9300', roles: ['data', 'ingest', 'master', 'ml'], attributes: {},
        tasks: Object.fromEntries(tasks.map((t) => [t.taskId, t.info(detailed)])),
      },
    },
  };
}

function actionsParam(v: string | undefined): string[] {
  return v === undefined || v === '' ? [] : v.split(',');
}

function timeoutParam(v: string | undefined): number {
  return v === undefined ? 30_000 : parseTimeValue(v, 'timeout');
}

export function taskRoutes(tasks: TaskManager, node: TaskNodeInfo): RouteDef[] {
  return [
    {
      methods: ['GET'],
      paths: ['/_tasks/:task_id'],
      authz: { action: 'cluster:monitor/task/get' },
      takesBody: false,
      params: ['wait_for_completion', 'timeout'],
      handler: async (req) => {
        const wait = boolParam(req.query, 'wait_for_completion', false);
        return { body: await tasks.get(req.params.task_id, wait ? timeoutParam(req.query.timeout) : null) };
      },
    },
    {
      methods: ['GET'],
      paths: ['/_tasks'],
      authz: { action: 'cluster:monitor/tasks/lists' },
      takesBody: false,
      params: ['actions', 'detailed', 'group_by', 'nodes', 'parent_task_id', 'wait_for_completion', 'timeout', 'master_timeout'],
      handler: (req) => {
        const detailed = boolParam(req.query, 'detailed', false);
        const list = tasks.list(actionsParam(req.query.actions));
        const groupBy = req.query.group_by ?? 'nodes';
        if (groupBy === 'none') return { body: { tasks: list.map((t) => t.info(detailed)) } };
        if (groupBy === 'parents') return { body: { tasks: Object.fromEntries(list.map((t) => [t.taskId, t.info(detailed)])) } };
        if (groupBy !== 'nodes') throw new IllegalArgumentError(`No enum constant org.elasticsearch.rest.action.admin.cluster.RestListTasksAction.GroupBy.${groupBy.toUpperCase()}`);
        return { body: renderTaskNodes(node, list, detailed) };
      },
    },
    {
      methods: ['POST'],
      paths: ['/_tasks/:task_id/_cancel', '/_tasks/_cancel'],
      authz: { action: 'cluster:admin/tasks/cancel' },
      takesBody: false,
      params: ['actions', 'nodes', 'parent_task_id', 'wait_for_completion', 'group_by'],
      handler: async (req) => {
        const id = req.params.task_id;
        const cancelled = id !== undefined
          ? [tasks.cancel(id)]
          : tasks.list(actionsParam(req.query.actions)).filter((t) => t.options.cancellable).map((t) => tasks.cancel(t.taskId));
        return { body: renderTaskNodes(node, cancelled, false) };
      },
    },
  ];
}
