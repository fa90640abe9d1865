/**
 * API keys (ES ApiKeyService): creation, lookup, invalidation and authentication, over plain
 * records that the cluster state persists (only salted hashes of secrets are ever stored).
 *
 * The bootstrap key authenticates as the built-in `elastic` superuser; every other key is owned by
 * whoever created it and is limited by the creator's permission (`limited_by`). Successful
 * verifications are cached as a fast salted digest, so a valid key costs one SHA-256 per request,
 * and a keep-alive connection that sends the header it authenticated with last costs none (see
 * ConnectionAuthentication); invalidation and expiry are checked on every request, so they take
 * effect at once.
 */
import { ActionRequestValidationError, IllegalArgumentError, SecurityError, XContentParseError } from '../errors/index.js';
import { isPlainObject } from '../common/json.js';
import { parseTimeValue } from '../common/time-value.js';
import { decodeCanonicalApiKey, newApiKeyCredentials, encodeApiKey, parseAuthorization, type ApiKeyCredentials } from './credentials.js';
import { cacheDigest, cacheDigestOf, charCodes, codesMatch, hashSecret, verifySecret, type CacheDigest } from './key-hasher.js';
import { Permission } from './permission.js';
import { parseRoleDescriptors, renderRoleDescriptors, SUPERUSER, type RoleDescriptors } from './role-descriptors.js';

export const SUPERUSER_NAME = 'elastic';
const API_KEY_REALM = { name: '_es_api_key', type: '_es_api_key' };
const RESERVED_REALM = { name: 'reserved', type: 'reserved' };

/** Who a request runs as. */
export interface Authentication {
  readonly username: string;
  readonly roles: readonly string[];
  readonly realm: { readonly name: string; readonly type: string };
  /** The key that authenticated the request, unless it was the bootstrap (superuser) key. */
  readonly apiKey: { readonly id: string; readonly name: string } | null;
  readonly permission: Permission;
}

/** How ES names the caller in a 403 (AuthorizationDenialMessages). */
export function principal(auth: Authentication): string {
  return auth.apiKey
    ? `API key id [${auth.apiKey.id}] of user [${auth.username}]`
    : `user [${auth.username}] with effective roles [${auth.roles.join(',')}]`;
}

export interface ApiKeyRecord {
  readonly id: string;
  readonly name: string;
  readonly hash: string;
  readonly creation: number;
  readonly expiration: number | null;
  invalidated: boolean;
  invalidation: number | null;
  readonly username: string;
  readonly realm: string;
  readonly realmType: string;
  /** The key that created this one (null: the bootstrap key). */
  readonly creatorKeyId: string | null;
  readonly metadata: Record<string, unknown>;
  readonly roleDescriptors: RoleDescriptors;
  /** The creator's permission chain at creation time. */
  readonly limitedBy: readonly RoleDescriptors[];
}

export interface SecurityState {
  readonly bootstrap: { readonly id: string; readonly hash: string } | null;
  readonly apiKeys: readonly ApiKeyRecord[];
}

const CREATE_FIELDS = new Set(['name', 'expiration', 'role_descriptors', 'metadata']);
const INVALIDATE_FIELDS = new Set(['id', 'ids', 'name', 'owner', 'username', 'realm_name']);
const CACHE_LIMIT = 10_000;
const OWN_ONLY = new Set(['manage_own_api_key']);

/**
 * Scratch for authenticate (one thread; used synchronously, copied before any await): the decoded
 * header (3 bytes per 4 characters: headers up to 256 base64 characters take the allocation-free
 * path, longer ones parseAuthorization's).
 */
const DECODED = Buffer.alloc(192);

/**
 * The key ids a verified request names, as strings, by their bytes (ids are not secrets). Making a
 * request's id from the scratch buffer (a native call) and V8 hashing that new string for the map
 * lookups cost ~400 instructions per request, more than this table's loops over the id's bytes
 * (docs/benchmarks/issue-19-request-hot-path.md, security-i19s2); a remembered id is the service's
 * own string (the bootstrap key's or the record's), whose hash V8 has cached. A slot is found by an FNV-1a hash of the bytes and its bytes compared in
 * full; only ids that name a key are remembered (after the lookup), so unknown ids cannot fill it,
 * and a colliding id takes the slot over. Nothing of a secret is kept: the authentication itself
 * (the secret's digest) is checked on every request as before.
 */
class KeyIdStrings {
  private static readonly SLOTS = 256;
  /** Ids longer than this are made as strings every time (every id this server issues has 20 characters). */
  private static readonly MAX_BYTES = 64;
  private readonly strings: string[] = new Array<string>(KeyIdStrings.SLOTS).fill('');
  private readonly bytes = new Uint8Array(KeyIdStrings.SLOTS * KeyIdStrings.MAX_BYTES);

  /** The FNV-1a hash of `bytes[0, length)`. */
  static hash(bytes: Uint8Array, length: number): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
    return h >>> 0;
  }

  /** The id in `bytes[0, length)` (latin1, as parseAuthorization reads an ASCII header): the remembered string, or a new one. */
  read(bytes: Buffer, length: number, hash: number): string {
    if (length <= KeyIdStrings.MAX_BYTES) {
      const slot = hash & (KeyIdStrings.SLOTS - 1);
      const known = this.strings[slot];
      if (known.length === length) {
        const base = slot * KeyIdStrings.MAX_BYTES;
        let diff = 0;
        for (let i = 0; i < length; i++) diff |= this.bytes[base + i] ^ bytes[i];
        if (diff === 0) return known;
      }
    }
    return bytes.toString('latin1', 0, length);
  }

  /** Remembers `id` (equal to the text of `bytes[0, length)`) in its slot. */
  remember(id: string, bytes: Uint8Array, length: number, hash: number): void {
    if (length > KeyIdStrings.MAX_BYTES) return;
    const slot = hash & (KeyIdStrings.SLOTS - 1);
    if (this.strings[slot] === id) return;
    const base = slot * KeyIdStrings.MAX_BYTES;
    for (let i = 0; i < length; i++) this.bytes[base + i] = bytes[i];
    this.strings[slot] = id;
  }
}

/**
 * What one connection (a keep-alive socket) authenticated with last: its `Authorization` header and
 * who that header ran as. Clients send the same header on every request of a connection (the
 * official ES clients, Search UI, Rally, load generators), and on a secured server decoding that
 * header and hashing its secret were most of what security cost a request's main thread (~9,000 of
 * ~10,000 instructions, docs/benchmarks/issue-19-request-hot-path.md security-i19s2 and i19k). A
 * request whose header is exactly the remembered one (codesMatch: constant time over its full length)
 * reuses the authentication without decoding or hashing.
 *
 * What keeps that as safe as the full path:
 * - Only a header that authenticated synchronously is remembered (a secret scrypt verified before);
 *   any other header, or one that fails, takes the full path and clears or replaces the memo.
 * - Invalidation and expiry still take effect at once: a hit requires the service's `generation`
 *   (bumped by every change to keys or the bootstrap key: create, invalidate, load, a new bootstrap
 *   key) to be the one the header was remembered at, and re-checks the key's record (invalidated,
 *   expired: `now()` against its expiration, as keyAuthentication does). A miss takes the full path,
 *   so a refused key gets exactly the full path's 401.
 * - Nothing outlives the connection or crosses to another one: ApiKeyService keeps one memo per
 *   connection object in a WeakMap, so it goes with the socket. There is no cache by header or by
 *   secret across connections (a global one would let one caller's timing probe another's secret,
 *   and it would keep secrets for the process's life).
 * The header's characters stay in memory while the connection lives (its request's string until the
 * connection sends a header again, then a copy), as every request's own header strings do until the GC reclaims them; the
 * copy is zeroed when the memo is cleared or replaced.
 */
class ConnectionAuthentication {
  /** Headers longer than this are not remembered (every key this server issues encodes to ~60 characters). */
  static readonly MAX_HEADER = 1024;
  /**
   * The remembered header as its request's own string, until the connection sends a header again: a
   * connection that makes one request (no keep-alive) costs no copy and no typed array, only this
   * object and its WeakMap entry.
   */
  header: string | null = null;
  /**
   * The remembered header's UTF-16 code units, copied from `header` when the connection sends a
   * header again: codesMatch then reads only the new header with `charCodeAt` (~1,000 instructions
   * fewer per request than comparing two strings). Null until then.
   */
  codes: Uint16Array | null = null;
  /** Who the remembered header ran as; null: nothing remembered. */
  auth: Authentication | null = null;
  /** The API key it authenticated with, for the checks on a hit; null: the bootstrap key. */
  key: ApiKeyRecord | null = null;
  /** The service's generation when the header was remembered. */
  generation = -1;

  /** Whether `header` is the remembered one, in time that depends on the lengths only. */
  matches(header: string): boolean {
    if (this.codes === null) {
      if (this.header === null) return false;
      // A header again: the connection is kept alive and likely repeats it, so every compare from now reads codes.
      this.codes = charCodes(this.header);
      this.header = null;
    }
    return codesMatch(this.codes, header);
  }

  /** Forgets the header (the copied characters zeroed) and who it ran as. */
  clear(): void {
    this.codes?.fill(0);
    this.codes = null;
    this.header = null;
    this.auth = null;
    this.key = null;
  }

  remember(header: string, auth: Authentication, key: ApiKeyRecord | null, generation: number): void {
    if (header.length > ConnectionAuthentication.MAX_HEADER) return;
    this.header = header;
    this.auth = auth;
    this.key = key;
    this.generation = generation;
  }
}

function indexOfColon(bytes: Uint8Array, length: number): number {
  for (let i = 0; i < length; i++) if (bytes[i] === 0x3a) return i;
  return -1;
}

export interface KeyQuery {
  readonly id?: string;
  readonly name?: string;
  readonly owner?: boolean;
  readonly username?: string;
  readonly realmName?: string;
  readonly activeOnly?: boolean;
  readonly withLimitedBy?: boolean;
}

export class ApiKeyService {
  private bootstrap: { id: string; hash: string } | null = null;
  private readonly keys = new Map<string, ApiKeyRecord>();
  /** id → digest of a secret that verified (see cacheDigest), as code units (see codesMatch). */
  private readonly verified = new Map<string, Uint16Array>();
  /** Who the bootstrap key runs as. */
  private readonly superuserAuthentication: Authentication = {
    username: SUPERUSER_NAME, roles: ['superuser'], realm: RESERVED_REALM, apiKey: null, permission: new Permission([SUPERUSER]),
  };
  /** Who each verified key runs as, with its compiled permission, by key id (records never change their roles). */
  private readonly authentications = new Map<string, Authentication>();
  /** The ids of keys that authenticated, by their bytes (see KeyIdStrings). */
  private readonly idStrings = new KeyIdStrings();
  /**
   * Bumped by every change to the keys or the bootstrap key (create, invalidate, load, initBootstrap):
   * a connection's remembered authentication holds only while this is unchanged (ConnectionAuthentication).
   */
  private generation = 0;
  /** Each connection's last authentication, by its connection object (a socket): gone with the connection. */
  private readonly connections = new WeakMap<object, ConnectionAuthentication>();

  /** `persist` makes the current state durable (the cluster state); mutations await it before answering. */
  constructor(private readonly persist: () => Promise<void>, private readonly now: () => number = Date.now) {}

  load(state: SecurityState | undefined): void {
    this.generation++;
    this.bootstrap = state?.bootstrap ?? null;
    this.keys.clear();
    for (const k of state?.apiKeys ?? []) this.keys.set(k.id, { ...k });
  }

  snapshot(): SecurityState {
    return { bootstrap: this.bootstrap, apiKeys: [...this.keys.values()] };
  }

  /**
   * Makes `configured` (an encoded key) the bootstrap key, or keeps the stored one, or generates a
   * new one. Returns the generated key's encoded value, which is shown once and never stored.
   */
  async initBootstrap(configured: ApiKeyCredentials | null): Promise<string | null> {
    if (configured) {
      const same = this.bootstrap?.id === configured.id && (await verifySecret(configured.secret, this.bootstrap.hash));
      if (!same) {
        this.bootstrap = { id: configured.id, hash: await hashSecret(configured.secret) };
        this.generation++;
        this.verified.delete(configured.id);
        await this.persist();
      }
      return null;
    }
    if (this.bootstrap) return null;
    const generated = newApiKeyCredentials();
    this.bootstrap = { id: generated.id, hash: await hashSecret(generated.secret) };
    this.generation++;
    await this.persist();
    return encodeApiKey(generated);
  }

  /**
   * Authenticates an `Authorization` header value, or throws ES's 401. A key whose secret was
   * verified before is answered synchronously (no promise, no event-loop turn); only a secret not
   * seen yet goes through scrypt and returns a promise. The answer for a verified key is one
   * `Authentication` per key, built once (records never change who they are or their roles).
   * The header every client sends (decodeCanonicalApiKey) is decoded into a scratch buffer and its
   * secret hashed from there: on that path a verified key allocates the id's and the digest's
   * strings and nothing else; any other header is read by parseAuthorization, with its errors, as before.
   */
  authenticate(header: string | undefined, uri: string): Authentication | Promise<Authentication> {
    if (header === undefined || header === '') throw SecurityError.missingCredentials(uri);
    const decodedLength = decodeCanonicalApiKey(header, DECODED);
    try {
      return this.authenticateDecoded(header, decodedLength);
    } finally {
      // The secret is not left behind in the scratch buffer, whatever the answer.
      for (let i = 0; i < decodedLength; i++) DECODED[i] = 0;
    }
  }

  /**
   * authenticate for a request that arrived on `connection` (its socket): the header this connection
   * authenticated with last is not decoded or hashed again while no key changed and its key has not
   * expired (ConnectionAuthentication); any other header goes through authenticate, and its answer
   * replaces what the connection remembers (a failure clears it).
   */
  authenticateConnection(connection: object, header: string | undefined, uri: string): Authentication | Promise<Authentication> {
    let memo = this.connections.get(connection);
    if (memo === undefined) {
      memo = new ConnectionAuthentication();
      this.connections.set(connection, memo);
    } else if (memo.auth !== null && header !== undefined && memo.generation === this.generation && memo.matches(header)) {
      const key = memo.key;
      // The bootstrap key neither expires nor is invalidated; it changes only with the generation.
      if (key === null || (!key.invalidated && (key.expiration === null || this.now() < key.expiration))) return memo.auth;
    }
    memo.clear();
    const auth = this.authenticate(header, uri);
    // A promise: the secret is being verified (scrypt); the connection's next request, answered
    // synchronously from the verified digests, is the one remembered.
    if (!(auth instanceof Promise)) {
      const key = auth.apiKey === null ? null : this.keys.get(auth.apiKey.id);
      if (key !== undefined) memo.remember(header!, auth, key, this.generation);
    }
    return auth;
  }

  private authenticateDecoded(header: string, decodedLength: number): Authentication | Promise<Authentication> {
    let id: string;
    // null: the secret is DECODED[secretStart, decodedLength), never made a string unless scrypt needs it.
    let secret: string | null = null;
    const colon = decodedLength > 0 ? indexOfColon(DECODED, decodedLength) : -1;
    const secretStart = colon + 1;
    // -1: the id was not read from the scratch buffer.
    let idHash = -1;
    if (colon > 0 && secretStart < decodedLength) {
      idHash = KeyIdStrings.hash(DECODED, colon);
      id = this.idStrings.read(DECODED, colon, idHash);
    } else {
      const parsed = parseAuthorization(header);
      if (parsed.kind === 'unsupported') throw SecurityError.unableToAuthenticate(`${parsed.scheme}: this server accepts only API keys (Authorization: ApiKey <encoded>)`);
      if (parsed.kind === 'malformed') throw SecurityError.unableToAuthenticate(`API key: ${parsed.reason}`);
      id = parsed.credentials.id;
      secret = parsed.credentials.secret;
    }
    // The digest only once the id names a key that may authenticate: an unknown or invalidated id costs no hash.
    let key: ApiKeyRecord | undefined;
    let hash: string;
    if (this.bootstrap && id === this.bootstrap.id) {
      hash = this.bootstrap.hash;
      if (idHash >= 0) this.idStrings.remember(this.bootstrap.id, DECODED, colon, idHash);
    } else {
      key = this.keys.get(id);
      if (!key) throw SecurityError.unableToAuthenticate(`API key: unable to find apikey with id ${id}`);
      if (key.invalidated) throw SecurityError.unableToAuthenticate(`API key: api key [${id}] has been invalidated`);
      hash = key.hash;
      if (idHash >= 0) this.idStrings.remember(key.id, DECODED, colon, idHash);
    }
    let verified: boolean;
    let digest: CacheDigest;
    if (secret === null) {
      digest = cacheDigestOf(DECODED, secretStart, decodedLength);
      verified = this.isVerified(id, digest);
      // Not verified before: scrypt needs it as text.
      if (!verified) secret = DECODED.toString('latin1', secretStart, decodedLength);
    } else {
      digest = cacheDigest(secret);
      verified = this.isVerified(id, digest);
    }
    if (verified) return key === undefined ? this.superuserAuthentication : this.keyAuthentication(key);
    const verifying = this.verify(id, secret!, digest, hash);
    return key === undefined ? verifying.then(() => this.superuserAuthentication) : verifying.then(() => this.keyAuthentication(key));
  }

  /** Whether `digest` (cacheDigest of the secret sent) is that of a secret verified for `id` before. */
  private isVerified(id: string, digest: CacheDigest): boolean {
    const cached = this.verified.get(id);
    return cached !== undefined && codesMatch(cached, digest);
  }

  /** Verifies `secret` against the stored `hash` (scrypt, off the main thread) and caches its digest, or throws the 401. */
  private async verify(id: string, secret: string, digest: CacheDigest, hash: string): Promise<void> {
    if (!(await verifySecret(secret, hash))) throw SecurityError.unableToAuthenticate(`API key: invalid credentials for API key [${id}]`);
    if (this.verified.size >= CACHE_LIMIT) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(id, charCodes(digest));
  }

  /** Who a verified key runs as, checked afresh on every request: invalidation and expiry take effect at once. */
  private keyAuthentication(key: ApiKeyRecord): Authentication {
    // Re-read: the key may have been invalidated while its secret was being verified.
    if (this.keys.get(key.id)?.invalidated !== false) throw SecurityError.unableToAuthenticate(`API key: api key [${key.id}] has been invalidated`);
    if (key.expiration !== null && this.now() >= key.expiration) throw SecurityError.unableToAuthenticate('API key: api key is expired');
    let auth = this.authentications.get(key.id);
    if (auth === undefined) {
      const permission = new Permission(Object.keys(key.roleDescriptors).length > 0 ? [key.roleDescriptors, ...key.limitedBy] : key.limitedBy);
      auth = { username: key.username, roles: [], realm: API_KEY_REALM, apiKey: { id: key.id, name: key.name }, permission };
      if (this.authentications.size >= CACHE_LIMIT) this.authentications.delete(this.authentications.keys().next().value!);
      this.authentications.set(key.id, auth);
    }
    return auth;
  }

  /** `POST|PUT /_security/api_key`. */
  async create(auth: Authentication, body: unknown): Promise<Record<string, unknown>> {
    if (!isPlainObject(body)) throw new IllegalArgumentError('request body is required');
    for (const k of Object.keys(body)) if (!CREATE_FIELDS.has(k)) throw new XContentParseError(`[api_key_request] unknown field [${k}]`, undefined, 'key');
    const problems: string[] = [];
    const name = body.name;
    if (name === undefined || name === null || name === '') problems.push('api key name is required');
    else if (typeof name !== 'string') throw new XContentParseError('[api_key_request] name doesn\'t support values of type: ' + (Array.isArray(name) ? 'START_ARRAY' : typeof name === 'object' ? 'START_OBJECT' : 'VALUE_NUMBER'));
    else {
      if (name.length > 1024) problems.push('api key name may not be more than [1024] characters long');
      if (name !== name.trim()) problems.push('api key name may not begin or end with whitespace');
      if (name.startsWith('_')) problems.push('api key name may not begin with an underscore');
    }
    const metadata = body.metadata ?? {};
    if (!isPlainObject(metadata)) throw new XContentParseError('[api_key_request] failed to parse field [metadata]');
    for (const k of Object.keys(metadata)) if (k.startsWith('_')) problems.push(`metadata keys may not start with [_]`);
    let expiration: number | null = null;
    if (body.expiration !== undefined && body.expiration !== null) {
      if (typeof body.expiration !== 'string') throw new XContentParseError('[api_key_request] failed to parse field [expiration]');
      let ms: number;
      try {
        ms = parseTimeValue(body.expiration, 'expiration');
      } catch (e) {
        throw new IllegalArgumentError((e as Error).message);
      }
      if (ms <= 0) problems.push('api key expiration must be a positive time value');
      expiration = this.now() + ms;
    }
    if (problems.length > 0) throw new ActionRequestValidationError([...new Set(problems)]);
    const roleDescriptors = parseRoleDescriptors(body.role_descriptors);
    const credentials = newApiKeyCredentials();
    const record: ApiKeyRecord = {
      id: credentials.id,
      name: name as string,
      hash: await hashSecret(credentials.secret),
      creation: this.now(),
      expiration,
      invalidated: false,
      invalidation: null,
      username: auth.username,
      realm: auth.realm.name,
      realmType: auth.realm.type,
      creatorKeyId: auth.apiKey?.id ?? null,
      metadata,
      roleDescriptors,
      limitedBy: auth.permission.chain,
    };
    this.keys.set(record.id, record);
    this.generation++;
    await this.persist();
    return {
      id: record.id,
      name: record.name,
      ...(expiration !== null ? { expiration } : {}),
      api_key: credentials.secret,
      encoded: encodeApiKey(credentials),
    };
  }

  /** Whether the caller may see and invalidate every key, or only its own (manage_own_api_key). */
  private canManageAll(auth: Authentication, action: string): boolean {
    return auth.permission.allowsCluster(action, OWN_ONLY);
  }

  /** Keys the caller created, and — for an API key — itself (ES: the current key is in its own scope). */
  private owns(auth: Authentication, key: ApiKeyRecord): boolean {
    return auth.apiKey ? key.creatorKeyId === auth.apiKey.id || key.id === auth.apiKey.id : key.creatorKeyId === null;
  }

  private select(auth: Authentication, q: KeyQuery, action: string): ApiKeyRecord[] {
    if (q.id !== undefined && q.name !== undefined) throw new ActionRequestValidationError(['only one of [api key id, api key name] can be specified']);
    if (q.owner && (q.username !== undefined || q.realmName !== undefined)) {
      throw new ActionRequestValidationError(['username or realm name must not be specified when retrieving owned API keys']);
    }
    const all = this.canManageAll(auth, action);
    const nameMatch = q.name === undefined || q.name === '*' ? null : q.name.endsWith('*') ? (n: string) => n.startsWith(q.name!.slice(0, -1)) : (n: string) => n === q.name;
    return [...this.keys.values()].filter((k) => {
      if (!all && !this.owns(auth, k)) return false;
      if (q.owner && !this.owns(auth, k)) return false;
      if (q.id !== undefined && k.id !== q.id) return false;
      if (nameMatch && !nameMatch(k.name)) return false;
      if (q.username !== undefined && k.username !== q.username) return false;
      if (q.realmName !== undefined && k.realm !== q.realmName) return false;
      if (q.activeOnly && (k.invalidated || (k.expiration !== null && this.now() >= k.expiration))) return false;
      return true;
    });
  }

  /** `GET /_security/api_key`. */
  get(auth: Authentication, q: KeyQuery): Record<string, unknown> {
    const keys = this.select(auth, q, 'cluster:admin/xpack/security/api_key/get');
    return {
      api_keys: keys.map((k) => ({
        id: k.id,
        name: k.name,
        type: 'rest',
        creation: k.creation,
        ...(k.expiration !== null ? { expiration: k.expiration } : {}),
        invalidated: k.invalidated,
        ...(k.invalidation !== null ? { invalidation: k.invalidation } : {}),
        username: k.username,
        realm: k.realm,
        realm_type: k.realmType,
        metadata: k.metadata,
        role_descriptors: renderRoleDescriptors(k.roleDescriptors),
        ...(q.withLimitedBy ? { limited_by: k.limitedBy.map(renderRoleDescriptors) } : {}),
      })),
    };
  }

  /** `DELETE /_security/api_key`. */
  async invalidate(auth: Authentication, body: unknown): Promise<Record<string, unknown>> {
    if (!isPlainObject(body)) throw new IllegalArgumentError('request body is required');
    for (const k of Object.keys(body)) if (!INVALIDATE_FIELDS.has(k)) throw new XContentParseError(`[invalidate_api_key_request] unknown field [${k}]`, undefined, 'key');
    const ids = body.ids ?? (body.id !== undefined ? [body.id] : undefined);
    if (ids !== undefined && (!Array.isArray(ids) || ids.some((i) => typeof i !== 'string'))) {
      throw new XContentParseError('[invalidate_api_key_request] failed to parse field [ids]');
    }
    for (const f of ['name', 'username', 'realm_name'] as const) {
      if (body[f] !== undefined && typeof body[f] !== 'string') throw new XContentParseError(`[invalidate_api_key_request] failed to parse field [${f}]`);
    }
    const owner = body.owner === true;
    if (!owner && ids === undefined && body.name === undefined && body.username === undefined && body.realm_name === undefined) {
      throw new ActionRequestValidationError(['One of [api key id(s), api key name, username, realm name] must be specified if [owner] flag is false']);
    }
    if (ids !== undefined && (ids as string[]).length === 0) throw new ActionRequestValidationError(['Field [ids] cannot be an empty array']);
    const action = 'cluster:admin/xpack/security/api_key/invalidate';
    const base: KeyQuery = { name: body.name as string | undefined, owner, username: body.username as string | undefined, realmName: body.realm_name as string | undefined };
    const candidates = ids === undefined ? this.select(auth, base, action) : (ids as string[]).flatMap((id) => this.select(auth, { ...base, id }, action));
    const invalidated: string[] = [];
    const previously: string[] = [];
    for (const k of candidates) {
      if (k.invalidated) {
        previously.push(k.id);
        continue;
      }
      k.invalidated = true;
      k.invalidation = this.now();
      this.generation++;
      this.verified.delete(k.id);
      this.authentications.delete(k.id);
      invalidated.push(k.id);
    }
    if (invalidated.length > 0) await this.persist();
    return { invalidated_api_keys: invalidated, previously_invalidated_api_keys: previously, error_count: 0 };
  }

  /** `GET /_security/_authenticate`. */
  describe(auth: Authentication): Record<string, unknown> {
    return {
      username: auth.username,
      roles: auth.roles,
      full_name: null,
      email: null,
      metadata: auth.apiKey ? {} : { _reserved: true },
      enabled: true,
      authentication_realm: auth.realm,
      lookup_realm: auth.realm,
      authentication_type: auth.apiKey ? 'api_key' : 'realm',
      ...(auth.apiKey ? { api_key: auth.apiKey } : {}),
    };
  }
}
