/** Worker entry: the query phase of shards (search/shard-search over their segments), in batches. */
import { searchShard } from '../src/search/index.js';
import type { SearchBatchReply, SearchBatchTask, SearchShardReply, SearchShardTask } from './protocol.js';
import { reply, resolveRefs } from './segment-cache.js';

export function search(task: SearchShardTask): SearchShardReply {
  return reply(() => {
    const shard = resolveRefs(task.segments, task.inline);
    if ('missing' in shard) return shard;
    return searchShard(task.request, shard);
  });
}

/** A batch of shard searches, each with its own reply (one failing does not fail the others). */
export function searchBatch(task: SearchBatchTask): SearchBatchReply {
  return task.searches.map(search);
}
