/**
 * The security REST APIs (ES RestCreateApiKeyAction, RestGetApiKeyAction, RestInvalidateApiKeyAction,
 * RestAuthenticateAction, RestHasPrivilegesAction) and the authentication hook that runs before
 * every request's body is read, so unauthenticated callers cost no parsing.
 */
import type { FastifyRequest } from 'fastify';
import { EsError, IllegalArgumentError } from '../errors/index.js';
import { isPlainObject } from '../common/json.js';
import type { ApiKeyService, Authentication } from '../security/index.js';
import { boolParam } from './params.js';
import { jsonBody, type RestRequest, type RouteDef } from './rest.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request runs as; null before authentication (and on bare OPTIONS), unset when security is off. */
    authentication?: Authentication | null;
  }
}

/**
 * Who the request runs as: every request is authenticated except bare OPTIONS (ES lets it through;
 * CORS preflights are answered before this). A cached key answers synchronously; only a secret
 * not seen yet returns a promise (scrypt). Called from the server's single `onRequest` hook, after
 * negotiation, CORS and admission, rather than from a hook of its own: a second hook is another
 * turn of fastify's hook runner on every request and makes its call sites polymorphic.
 */
export function authenticateRequest(keys: ApiKeyService, req: FastifyRequest): Authentication | Promise<Authentication> | null {
  if (req.method === 'OPTIONS') return null;
  // By connection: a keep-alive socket that sends the header it authenticated with last is not
  // decoded and hashed again (ApiKeyService.authenticateConnection). fastify's inject gives each
  // request a socket of its own; a request without one takes the full path.
  const socket = req.raw.socket as object | null;
  if (socket === null || socket === undefined) return keys.authenticate(req.headers.authorization, req.url);
  return keys.authenticateConnection(socket, req.headers.authorization, req.url);
}

function caller(req: RestRequest): Authentication {
  // Routes run after the hook; a missing authentication means the hook was not registered.
  if (!req.authorizer) throw new SecurityDisabledError();
  return req.authorizer.auth;
}

/** ES's answer to security APIs on a node without security. */
class SecurityDisabledError extends EsError {
  constructor() {
    super('exception', 'Security is disabled on this server (started with --no-security); restart it without that flag to use the security APIs', 500);
  }
}

function body(req: RestRequest): unknown {
  return jsonBody(req);
}

function hasPrivileges(auth: Authentication, req: RestRequest): Record<string, unknown> {
  const user = req.params.user;
  if (user !== undefined && user !== auth.username) throw new IllegalArgumentError(`users may only check the privileges of their own account`);
  const b = body(req);
  if (!isPlainObject(b)) throw new IllegalArgumentError('request body is required');
  const cluster: Record<string, boolean> = {};
  const index: Record<string, Record<string, boolean>> = {};
  let all = true;
  for (const [k, v] of Object.entries(b)) {
    if (k === 'cluster') {
      if (!Array.isArray(v) || v.some((p) => typeof p !== 'string')) throw new IllegalArgumentError('[cluster] must be an array of privilege names');
      for (const p of v as string[]) all = (cluster[p] = auth.permission.hasClusterPrivilege(p)) && all;
    } else if (k === 'index') {
      if (!Array.isArray(v)) throw new IllegalArgumentError('[index] must be an array of index privilege checks');
      for (const check of v) {
        if (!isPlainObject(check) || check.names === undefined || !Array.isArray(check.privileges)) {
          throw new IllegalArgumentError('an index privilege check needs [names] and [privileges]');
        }
        const names = typeof check.names === 'string' ? [check.names] : (check.names as unknown[]);
        for (const name of names) {
          if (typeof name !== 'string') throw new IllegalArgumentError('[names] must be strings');
          const entry = (index[name] ??= {});
          for (const p of check.privileges as unknown[]) {
            if (typeof p !== 'string') throw new IllegalArgumentError('[privileges] must be strings');
            all = (entry[p] = auth.permission.hasIndexPrivilege(p, name)) && all;
          }
        }
      }
    } else if (k === 'application') {
      if (!Array.isArray(v) || v.length > 0) throw new IllegalArgumentError('application privileges are not supported by this server');
    } else {
      throw new IllegalArgumentError(`unexpected field [${k}]`);
    }
  }
  return { username: auth.username, has_all_requested: all, cluster, index, application: {} };
}

export function securityRoutes(keys: ApiKeyService | null): RouteDef[] {
  const service = (): ApiKeyService => {
    if (!keys) throw new SecurityDisabledError();
    return keys;
  };
  const API_KEY = 'cluster:admin/xpack/security/api_key';
  return [
    {
      methods: ['POST', 'PUT'],
      paths: ['/_security/api_key'],
      params: ['refresh'],
      authz: { action: `${API_KEY}/create` },
      handler: async (req) => ({ body: await service().create(caller(req), body(req)) }),
    },
    {
      methods: ['GET'],
      paths: ['/_security/api_key'],
      params: ['id', 'name', 'owner', 'realm_name', 'username', 'with_limited_by', 'active_only', 'with_profile_uid'],
      authz: { action: `${API_KEY}/get` },
      takesBody: false,
      handler: (req) => ({
        body: service().get(caller(req), {
          id: req.query.id,
          name: req.query.name,
          owner: boolParam(req.query, 'owner', false),
          username: req.query.username,
          realmName: req.query.realm_name,
          activeOnly: boolParam(req.query, 'active_only', false),
          withLimitedBy: boolParam(req.query, 'with_limited_by', false),
        }),
      }),
    },
    {
      methods: ['DELETE'],
      paths: ['/_security/api_key'],
      params: ['refresh'],
      authz: { action: `${API_KEY}/invalidate` },
      handler: async (req) => ({ body: await service().invalidate(caller(req), body(req)) }),
    },
    {
      methods: ['GET'],
      paths: ['/_security/_authenticate'],
      authz: { action: 'cluster:admin/xpack/security/user/authenticate' },
      takesBody: false,
      handler: (req) => ({ body: service().describe(caller(req)) }),
    },
    {
      methods: ['GET', 'POST'],
      paths: ['/_security/user/_has_privileges', '/_security/user/:user/_has_privileges'],
      authz: { action: 'cluster:admin/xpack/security/user/has_privileges' },
      handler: (req) => {
        service();
        return { body: hasPrivileges(caller(req), req) };
      },
    },
  ];
}
