/**
 * Worker entry for large request bodies: UTF-8 decoding, the nesting-depth check and JSON.parse of
 * a body of megabytes block a thread for up to seconds (a 95 MB query: ~3 s), so they run here
 * and the main thread keeps answering. Errors are dsl/'s, exactly as parsing on the main thread
 * would throw them.
 */
import { EsError, InternalError } from '../src/errors/index.js';
import { parseJson } from '../src/dsl/index.js';
import type { ReadBodyReply, ReadBodyTask } from './protocol.js';

export function readBody(task: ReadBodyTask): ReadBodyReply {
  // Decoded as the main thread decodes small bodies (invalid sequences become U+FFFD).
  const text = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength).toString('utf8');
  try {
    return { text, value: parseJson(text) };
  } catch (e) {
    const error = e instanceof EsError ? e : new InternalError(e instanceof Error ? e.message : String(e));
    return { text, error: error.toPlain() };
  }
}
