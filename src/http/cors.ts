/**
 * CORS for browsers (ES `http.cors.*`, Netty's CorsHandler as ES configures it): preflight
 * `OPTIONS` requests are answered here without credentials; every other response to an allowed
 * origin (errors included) carries `Access-Control-Allow-Origin`, so a page can read ES's error
 * bodies. A request from an origin that is not allowed is refused with 403, as ES does.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EsError, IllegalArgumentError } from '../errors/index.js';
import { compileJavaWholeMatch, matches, type Dfa } from '../common/pattern/index.js';

export interface CorsOptions {
  /** `*` (any origin), or exact origins and `/regex/` patterns; empty: CORS off. */
  readonly allowOrigins: readonly string[];
}

const ALLOW_METHODS = 'GET, POST, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type, X-Elastic-Client-Meta';
const EXPOSE_HEADERS = 'X-elastic-product';
/** ES `http.cors.max-age` default: 20 days. */
const MAX_AGE = '1728000';

declare module 'fastify' {
  interface FastifyRequest {
    /** The value for `Access-Control-Allow-Origin`, when the request came from an allowed origin. */
    corsOrigin?: string;
  }
}

/** Parses `--cors-origin`: a comma list of origins, `*`, or `/regex/`s; `''` turns CORS off. */
export function parseCorsOrigins(raw: string): string[] {
  return raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function originMatcher(patterns: readonly string[]): ((origin: string) => string | null) | null {
  if (patterns.length === 0) return null;
  if (patterns.includes('*')) return () => '*';
  // ES matches the whole origin (Pattern.matcher(origin).matches()), so `/https?:\/\/localhost(:[0-9]+)?/`
  // admits http://localhost:3000 but not http://localhost.evil.com. The Origin header is the
  // client's: patterns run as automata, in time linear in its length whatever it holds.
  const dfas = patterns.filter(isRegexOrigin).map(compileOriginPattern);
  const exact = new Set(patterns.filter((p) => !isRegexOrigin(p)));
  return (origin) => (exact.has(origin) || dfas.some((dfa) => matches(dfa, origin)) ? origin : null);
}

function isRegexOrigin(pattern: string): boolean {
  return pattern.length > 1 && pattern.startsWith('/') && pattern.endsWith('/');
}

/** A `/regex/` origin as a DFA; a pattern that is not a regular language fails start-up, saying which. */
function compileOriginPattern(pattern: string): Dfa {
  try {
    return compileJavaWholeMatch(pattern.slice(1, -1));
  } catch (e) {
    if (!(e instanceof EsError)) throw e;
    throw new IllegalArgumentError(`invalid CORS allowed origin pattern [${pattern}]: ${e.message}`);
  }
}

function refuse(reply: FastifyReply): FastifyReply {
  // ES answers a refused origin with a bare 403 and no body.
  return reply.code(403).header('content-length', '0').send('');
}

/** What CORS does on each request: server.ts calls these from its own hooks (one hook per phase for all). */
export interface CorsHooks {
  /**
   * On a request, before authentication so preflights need no key: true when it has been answered
   * here (a preflight, or a refused origin) and goes no further.
   */
  onRequest(req: FastifyRequest, reply: FastifyReply): boolean;
  /** On a response: the `Access-Control-*` headers for an allowed origin. */
  onSend(req: FastifyRequest, reply: FastifyReply): void;
}

/** The CORS steps for `options`; null when CORS is off. */
export function corsHooks(options: CorsOptions): CorsHooks | null {
  const match = originMatcher(options.allowOrigins);
  if (!match) return null;
  return {
    onRequest(req, reply) {
      const origin = req.headers.origin;
      if (origin === undefined) return false;
      const allowed = match(origin);
      const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
      if (allowed === null) {
        // Same-origin requests carry an Origin too (for POST); ES lets those through.
        if (!preflight && isSameOrigin(req, origin)) return false;
        req.corsOrigin = undefined;
        // Answered here: the request goes no further (fastify's early response from a hook, without done()).
        refuse(reply);
        return true;
      }
      req.corsOrigin = allowed;
      if (!preflight) return false;
      reply
        .code(200)
        .header('access-control-allow-origin', allowed)
        .header('access-control-allow-methods', ALLOW_METHODS)
        .header('access-control-allow-headers', ALLOW_HEADERS)
        .header('access-control-max-age', MAX_AGE)
        .header('content-length', '0');
      if (allowed !== '*') reply.header('vary', 'Origin');
      reply.send('');
      return true;
    },
    onSend(req, reply) {
      if (req.corsOrigin === undefined) return;
      reply.header('access-control-allow-origin', req.corsOrigin);
      reply.header('access-control-expose-headers', EXPOSE_HEADERS);
      if (req.corsOrigin !== '*') reply.header('vary', 'Origin');
    },
  };
}

function isSameOrigin(req: FastifyRequest, origin: string): boolean {
  const host = req.headers.host;
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}
