/**
 * Role descriptors as API keys carry them (ES RoleDescriptor): named sets of cluster privileges and
 * index privilege groups. Parsing follows ES's wording; document- and field-level security
 * (`query`, `field_security`), applications and run-as are not supported and are refused, so a key
 * never looks more restricted than it is.
 */
import { ActionRequestValidationError, ParseError } from '../errors/index.js';
import { isPlainObject } from '../common/json.js';
import { validatePrivilege } from './privileges.js';

export interface IndicesPrivileges {
  readonly names: readonly string[];
  readonly privileges: readonly string[];
  readonly allowRestrictedIndices: boolean;
}

export interface RoleDescriptor {
  readonly cluster: readonly string[];
  readonly indices: readonly IndicesPrivileges[];
  readonly metadata: Record<string, unknown>;
  readonly description?: string;
}

/** `role_descriptors` as stored and rendered: role name → descriptor. */
export type RoleDescriptors = Readonly<Record<string, RoleDescriptor>>;

/** The built-in `superuser` role: everything, everywhere. */
export const SUPERUSER: RoleDescriptors = {
  superuser: { cluster: ['all'], indices: [{ names: ['*'], privileges: ['all'], allowRestrictedIndices: true }], metadata: { _reserved: true } },
};

function tokenName(v: unknown): string {
  if (Array.isArray(v)) return 'START_ARRAY';
  if (isPlainObject(v)) return 'START_OBJECT';
  if (typeof v === 'string') return 'VALUE_STRING';
  if (typeof v === 'number') return 'VALUE_NUMBER';
  if (typeof v === 'boolean') return 'VALUE_BOOLEAN';
  return 'VALUE_NULL';
}

function stringList(v: unknown, fail: (found: string) => ParseError, allowSingle: boolean): string[] {
  if (typeof v === 'string' && allowSingle) return [v];
  if (!Array.isArray(v)) throw fail(tokenName(v));
  return v.map((item) => {
    if (typeof item !== 'string') throw fail(tokenName(item));
    return item;
  });
}

function parseIndicesGroup(role: string, v: unknown): IndicesPrivileges {
  const prefix = `failed to parse indices privileges for role [${role}]`;
  if (!isPlainObject(v)) throw new ParseError(`${prefix}. expected field [indices] value to be an array of objects, but found an array element of type [${tokenName(v)}]`);
  let names: string[] | null = null;
  let privileges: string[] | null = null;
  let allowRestrictedIndices = false;
  for (const [k, value] of Object.entries(v)) {
    switch (k) {
      case 'names':
        names = stringList(value, (t) => new ParseError(`${prefix}. expected field [names] value to be a string or an array of strings, but found [${t}] instead`), true);
        break;
      case 'privileges':
        privileges = stringList(value, (t) => new ParseError(`${prefix}. expected field [privileges] value to be an array of strings, but found [${t}] instead`), false);
        break;
      case 'allow_restricted_indices':
        if (typeof value !== 'boolean') throw new ParseError(`${prefix}. expected field [allow_restricted_indices] value to be a boolean, but found [${tokenName(value)}] instead`);
        allowRestrictedIndices = value;
        break;
      case 'query':
      case 'field_security':
        throw new ParseError(`${prefix}. [${k}] (document and field level security) is not supported by this server`);
      default:
        throw new ParseError(`${prefix}. unexpected field [${k}]`);
    }
  }
  if (names === null) throw new ParseError(`${prefix}. missing required [names] field`);
  if (privileges === null) throw new ParseError(`${prefix}. missing required [privileges] field`);
  return { names, privileges, allowRestrictedIndices };
}

function parseRole(role: string, v: unknown): RoleDescriptor {
  if (!isPlainObject(v)) throw new ParseError(`failed to parse role [${role}]. expected an object but found [${tokenName(v)}] instead`);
  let cluster: string[] = [];
  let indices: IndicesPrivileges[] = [];
  let metadata: Record<string, unknown> = {};
  let description: string | undefined;
  for (const [k, value] of Object.entries(v)) {
    switch (k) {
      case 'cluster':
        cluster = stringList(value, (t) => new ParseError(`failed to parse role [${role}]. expected field [cluster] value to be an array of strings, but found [${t}] instead`), false);
        break;
      case 'indices':
      case 'index':
        if (!Array.isArray(value)) throw new ParseError(`failed to parse role [${role}]. expected field [${k}] value to be an array, but found [${tokenName(value)}] instead`);
        indices = value.map((g) => parseIndicesGroup(role, g));
        break;
      case 'metadata':
        if (!isPlainObject(value)) throw new ParseError(`failed to parse role [${role}]. expected field [metadata] value to be an object, but found [${tokenName(value)}] instead`);
        metadata = value;
        break;
      case 'description':
        if (typeof value !== 'string') throw new ParseError(`failed to parse role [${role}]. expected field [description] value to be a string, but found [${tokenName(value)}] instead`);
        description = value;
        break;
      case 'transient_metadata':
        break;
      case 'applications':
      case 'run_as':
      case 'remote_indices':
      case 'remote_cluster':
        if (Array.isArray(value) && value.length === 0) break;
        throw new ParseError(`failed to parse role [${role}]. [${k}] is not supported by this server`);
      default:
        throw new ParseError(`failed to parse role [${role}]. unexpected field [${k}]`);
    }
  }
  return { cluster, indices, metadata, ...(description !== undefined ? { description } : {}) };
}

/** Parses and validates `role_descriptors`; unknown privilege names fail as ES's request validation. */
export function parseRoleDescriptors(v: unknown): RoleDescriptors {
  if (v === undefined || v === null) return {};
  if (!isPlainObject(v)) throw new ParseError(`failed to parse role descriptors. expected an object but found [${tokenName(v)}] instead`);
  const out: Record<string, RoleDescriptor> = {};
  const problems: string[] = [];
  for (const [name, body] of Object.entries(v)) {
    const role = parseRole(name, body);
    for (const p of role.cluster) collect(problems, () => validatePrivilege('cluster', p));
    for (const g of role.indices) {
      if (g.names.length === 0) problems.push('indices privileges must refer to at least one index name or index name pattern');
      if (g.privileges.length === 0) problems.push('indices privileges must define at least one privilege');
      for (const p of g.privileges) collect(problems, () => validatePrivilege('index', p));
    }
    out[name] = role;
  }
  if (problems.length > 0) throw new ActionRequestValidationError(problems);
  return out;
}

function collect(problems: string[], check: () => void): void {
  try {
    check();
  } catch (e) {
    problems.push((e as Error).message);
  }
}

/** ES's rendering of role descriptors (GET api_key, _authenticate). */
export function renderRoleDescriptors(roles: RoleDescriptors): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, r] of Object.entries(roles)) {
    out[name] = {
      cluster: r.cluster,
      indices: r.indices.map((g) => ({ names: g.names, privileges: g.privileges, allow_restricted_indices: g.allowRestrictedIndices })),
      applications: [],
      run_as: [],
      metadata: r.metadata,
      transient_metadata: { enabled: true },
      ...(r.description !== undefined ? { description: r.description } : {}),
    };
  }
  return out;
}
