/**
 * A GET on its own connection whose reader may wait before reading the response: the client's side
 * of a slow consumer, for tests of buffers a response holds until it has been written.
 */
import { request } from 'node:http';

/** The body of GET `path` on 127.0.0.1:`port`, read at once or `readAfterMs` after the headers arrive. */
export function getText(port: number, path: string, readAfterMs = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      const parts: Buffer[] = [];
      const read = () => {
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
      };
      if (readAfterMs > 0) {
        res.pause();
        setTimeout(() => {
          read();
          res.resume();
        }, readAfterMs);
      } else read();
    });
    req.on('error', reject);
    req.end();
  });
}
