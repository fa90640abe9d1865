/** Worker entry: the query phase of one shard (search/shard-search over its segments). */
import { searchShard } from '../src/search/index.js';
import type { SearchShardReply, SearchShardTask } from './protocol.js';
import { reply, resolveRefs } from './segment-cache.js';

export function search(task: SearchShardTask): SearchShardReply {
  return reply(() => {
    const shard = resolveRefs(task.segments, task.inline);
    if ('missing' in shard) return shard;
    return searchShard(task.request, shard);
  });
}
