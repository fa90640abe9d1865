/**
 * An NDJSON body (`_bulk`) as the bytes received. Its handler splits the lines on the bytes and
 * decodes each line alone: V8 decodes a 1.2 MB body of 5,000 documents ~6× slower as one string
 * than as 10,000 line strings (and the whole string is a large-object allocation per request that
 * every document sliced from it would keep alive until the next refresh). The text is decoded only
 * when something asks for it (an error's position, a route that reads `body`).
 */
export class NdjsonBody {
  private text: string | null = null;

  constructor(
    readonly bytes: Buffer,
    /**
     * The reused buffer `bytes` lies in (body-reader.ts), or null: given back once the request's
     * response has been written (rest.ts sendRest), after which neither may be read.
     */
    readonly pooled: Buffer | null = null,
  ) {}

  /** The body's text (UTF-8, invalid sequences as U+FFFD), decoded on first use. */
  decode(): string {
    return (this.text ??= this.bytes.toString('utf8'));
  }
}
