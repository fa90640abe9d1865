/**
 * A request body read off the main thread (cluster/body-pool.ts): its JSON value, parsed in the
 * worker, and its decoded bytes. The text is decoded from the bytes only when a route asks for it
 * (a document's stored source, a slow-log line, an error's line/col): a 95 MB query that fails
 * validation never becomes a 95 MB string on the main thread a second time.
 */
import type { ParsedJson } from '../dsl/index.js';

export class LargeBody {
  private text: string | null = null;

  constructor(
    private readonly bytes: Uint8Array,
    readonly json: ParsedJson,
  ) {}

  /** The body's text (UTF-8, invalid sequences as U+FFFD), decoded on first use. */
  decode(): string {
    return (this.text ??= Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString('utf8'));
  }
}
