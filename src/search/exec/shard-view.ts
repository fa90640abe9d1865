/** What a worker searches for one shard: its segments and each one's live docs (null = all live). */
import type { Segment } from '../../index/index.js';

export interface ShardView {
  readonly segments: readonly Segment[];
  readonly liveDocs: ReadonlyArray<Uint32Array | null>;
}
