/**
 * One debug line per request (`--log-level debug`): method, path, status, took, response bytes and
 * who made it (the API key id, or the user for the bootstrap key). The hook is only registered
 * when debug is enabled, so at the default level requests pay nothing for it. Nothing secret is
 * written: no headers, no bodies, and query parameters that can carry credentials are redacted.
 */
import type { FastifyInstance } from 'fastify';
import { REDACTED, type Logger } from '../logging/index.js';

/** Query parameter names that may carry a credential (`api_key`, `apikey`, `access_token`, `password`…). */
const SECRET_PARAM = /api[-_]?key|token|secret|passw(or)?d|auth|credential|signature/i;
/** Paths are capped: a path is client input and can be huge (a long id list, a mistake). */
const MAX_PATH_CHARS = 512;

/** The request path for a log line: credentials in the query string replaced, length capped. */
export function loggablePath(url: string): string {
  const q = url.indexOf('?');
  let out = url;
  if (q >= 0) {
    const params = url.slice(q + 1).split('&').map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed escape is logged as sent (after redaction by its raw name).
      }
      return eq >= 0 && SECRET_PARAM.test(decoded) ? `${name}=${REDACTED}` : pair;
    });
    out = `${url.slice(0, q)}?${params.join('&')}`;
  }
  return out.length > MAX_PATH_CHARS ? `${out.slice(0, MAX_PATH_CHARS)}…` : out;
}

export function registerRequestLog(app: FastifyInstance, log: Logger): void {
  if (!log.isLevelEnabled('debug')) return;
  app.addHook('onResponse', (req, reply, done) => {
    const length = reply.getHeader('content-length');
    const auth = req.authentication;
    log.debug({
      method: req.method,
      path: loggablePath(req.url),
      status: reply.statusCode,
      took_ms: Math.round(reply.elapsedTime * 1000) / 1000,
      bytes: length === undefined ? null : Number(length),
      api_key_id: auth?.apiKey?.id ?? null,
      user: auth?.username ?? null,
    }, 'request');
    done();
  });
}
