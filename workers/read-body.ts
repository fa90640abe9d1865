/**
 * Worker entry for large and compressed request bodies: inflating, UTF-8 decoding, the nesting-depth
 * check and JSON.parse of a body of megabytes block a thread for up to seconds (a 97 KB gzip body
 * expands to 95 MB), so they run here and the main thread keeps answering. Errors are dsl/'s,
 * exactly as parsing on the main thread would throw them.
 *
 * The reply carries the parsed value and the decoded bytes, transferred (not copied): the body's
 * text is decoded again on the main thread only when a route needs it (a document's source).
 */
import { brotliDecompressSync, gunzipSync, inflateSync, type ZlibOptions, type BrotliOptions } from 'node:zlib';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { EsError, InternalError } from '../src/errors/index.js';
import { gzipStatedSize } from '../src/common/gzip-trailer.js';
import { checkJsonLimits, parseJson, parseJsonChecked } from '../src/dsl/index.js';
import type { ContentCoding, ReadBodyReply, ReadBodyTask } from './protocol.js';

const INFLATE: Record<ContentCoding, (bytes: Uint8Array, options: ZlibOptions & BrotliOptions) => Buffer> = {
  gzip: gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

export function readBody(task: ReadBodyTask): ReadBodyReply {
  let bytes: Uint8Array = task.bytes;
  if (task.coding !== null) {
    try {
      // Past the limit zlib stops and throws: a gzip bomb never allocates more than the limit.
      bytes = INFLATE[task.coding](task.bytes, { maxOutputLength: task.maxContentLength, chunkSize: outputChunkSize(task) });
    } catch (e) {
      const { code, message } = e as { code?: string; message: string };
      if (code === 'ERR_BUFFER_TOO_LARGE') return { tooLong: true };
      return { corrupt: message };
    }
  } else if (bytes.byteLength > task.maxContentLength) {
    return { tooLong: true };
  }
  let reply: ReadBodyReply;
  try {
    // A query body's limits are checked on its bytes, before a string of them exists.
    if (task.maxTokenCount !== null) checkJsonLimits(bytes, task.maxTokenCount);
    // Decoded as the main thread decodes small bodies (invalid sequences become U+FFFD).
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    reply = { bytes, value: task.maxTokenCount !== null ? parseJsonChecked(text) : parseJson(text) };
  } catch (e) {
    const error = e instanceof EsError ? e : new InternalError(e instanceof Error ? e.message : String(e));
    reply = { bytes, error: error.toPlain() };
  }
  return transferBytes(reply, bytes);
}

/** zlib's default output chunk; also the least we take a gzip trailer's word for. */
const MIN_CHUNK = 64 * 1024;

/**
 * The output chunk to inflate into. zlib inflates chunk by chunk and concatenates the chunks at
 * the end (a second copy of the whole body); gzip's trailer states the inflated size (mod 2^32),
 * so one chunk of that size usually holds it all. The trailer is the client's word: the size is
 * clamped to [MIN_CHUNK, maxContentLength], and a wrong one costs only the concatenation.
 */
function outputChunkSize(task: ReadBodyTask): number {
  const { bytes, coding, maxContentLength } = task;
  const stated = coding === 'gzip' ? gzipStatedSize(bytes) : null;
  return stated === null ? MIN_CHUNK : Math.max(MIN_CHUNK, Math.min(stated, maxContentLength));
}

/** The reply with `bytes`' buffer moved to the main thread, when the bytes are a whole buffer of their own. */
function transferBytes(reply: ReadBodyReply, bytes: Uint8Array): ReadBodyReply {
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  if (!own) return reply;
  // Piscina's Transferable protocol: the value to send, and what to transfer with it.
  return move({ [transferableSymbol]: [bytes.buffer], [valueSymbol]: reply }) as unknown as ReadBodyReply;
}
