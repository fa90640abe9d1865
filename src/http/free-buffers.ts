/**
 * The REST layer's free lists of reusable buffers: request bodies (body-reader.ts, up to 8 MB),
 * response chunks (json-chunks.ts, 2 MB) and response buffers (response-buffers.ts, 1 MB). They are
 * kept between requests so a load's fresh ArrayBuffers do not start the coordinator's mark-compacts
 * (issue 19); once the node goes idle after segment work (cluster/idle-collector.ts) they are
 * dropped before the coordinator's collection, which frees them, so an idle node does not keep them
 * resident (issue 22). The next load allocates them again.
 */
import { dropFreeBodyBuffers } from './body-reader.js';
import { dropFreeJsonChunks } from './json-chunks.js';
import { dropFreeResponseBuffers } from './response-buffers.js';

export function dropFreeBuffers(): void {
  dropFreeBodyBuffers();
  dropFreeJsonChunks();
  dropFreeResponseBuffers();
}
