/**
 * The registry of indices on this node: create (with settings and mappings validated as ES does),
 * delete, look up, auto-create on write, and resolve index expressions.
 */
import { randomBase64Uuid } from '../common/ids.js';
import { IllegalArgumentError, IndexNotFoundError, MapperParsingError, ResourceAlreadyExistsError } from '../errors/index.js';
import { isPlainObject } from '../common/json.js';
import { EMPTY_ROOT, flattenSettings, parseRootMapping, resolveMapping, resolveSettings, validateSettings, type RootMapping } from '../index/index.js';
import { IndexService } from './index-service.js';
import { validateIndexName } from './index-names.js';
import { resolveIndexExpression, type ResolveOptions } from './index-resolver.js';
import type { SearchPool } from './search-pool.js';

export interface CreateIndexBody {
  readonly settings?: unknown;
  readonly mappings?: unknown;
  readonly aliases?: unknown;
}

export class IndicesService {
  private readonly indices = new Map<string, IndexService>();

  constructor(private readonly pool: SearchPool) {}

  names(): string[] {
    return [...this.indices.keys()].sort();
  }

  get(name: string): IndexService | undefined {
    return this.indices.get(name);
  }

  require(name: string): IndexService {
    const index = this.indices.get(name);
    if (!index) throw new IndexNotFoundError(name);
    return index;
  }

  resolve(expression: string | undefined, options?: ResolveOptions): IndexService[] {
    return resolveIndexExpression(expression, this.names(), options).map((n) => this.indices.get(n)!);
  }

  create(name: string, body: CreateIndexBody): IndexService {
    validateIndexName(name);
    const existing = this.indices.get(name);
    if (existing) throw new ResourceAlreadyExistsError(name, existing.uuid);
    for (const key of Object.keys(body)) {
      if (key !== 'settings' && key !== 'mappings' && key !== 'aliases') {
        throw new IllegalArgumentError(`unknown key [${key}] for create index`);
      }
    }
    if (body.aliases !== undefined && !(isPlainObject(body.aliases) && Object.keys(body.aliases).length === 0)) {
      throw new IllegalArgumentError('[aliases] are not supported by this server yet');
    }
    const settings = flattenSettings(body.settings);
    validateSettings(settings);
    let mapping: RootMapping = EMPTY_ROOT;
    if (body.mappings !== undefined) {
      try {
        mapping = parseRootMapping(body.mappings);
      } catch (e) {
        if (e instanceof MapperParsingError) throw new MapperParsingError(`Failed to parse mapping: ${e.message}`, e);
        throw e;
      }
    }
    const resolved = resolveSettings(settings);
    if (resolveMapping(mapping).totalFields > resolved.totalFieldsLimit) {
      throw new IllegalArgumentError(`Limit of total fields [${resolved.totalFieldsLimit}] has been exceeded`);
    }
    const uuid = randomBase64Uuid();
    const creationDate = Date.now();
    const full = new Map(settings);
    // ES renders these with every index; they are read-only.
    full.set('index.number_of_shards', String(resolved.numberOfShards));
    full.set('index.number_of_replicas', String(resolved.numberOfReplicas));
    full.set('index.uuid', uuid);
    full.set('index.creation_date', String(creationDate));
    full.set('index.provided_name', name);
    full.set('index.version.created', '8505000');
    full.set('index.routing.allocation.include._tier_preference', full.get('index.routing.allocation.include._tier_preference') ?? 'data_content');
    const index = new IndexService({ name, uuid, creationDate, settings: full, mapping }, this.pool);
    this.indices.set(name, index);
    return index;
  }

  /** Write to a missing index creates it with dynamic mapping (action.auto_create_index: true). */
  getOrAutoCreate(name: string): IndexService {
    return this.indices.get(name) ?? this.create(name, {});
  }

  delete(expression: string): string[] {
    const parts = expression.split(',');
    if (parts.some((p) => p.includes('*') || p === '_all')) {
      // action.destructive_requires_name defaults to true in 8.x.
      throw new IllegalArgumentError('Wildcard expressions or all indices are not allowed');
    }
    const names = resolveIndexExpression(expression, this.names());
    for (const n of names) {
      this.indices.get(n)!.close();
      this.indices.delete(n);
    }
    return names;
  }

  close(): void {
    for (const index of this.indices.values()) index.close();
    this.indices.clear();
  }
}
