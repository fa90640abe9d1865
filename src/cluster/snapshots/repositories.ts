/**
 * Registered snapshot repositories (ES RepositoriesService): name → type and settings, kept in the
 * cluster state's `snapshot_repositories` section. Only ES's shared-filesystem type `fs` exists
 * here; its `location` must lie under one of the node's `path.repo` directories (a relative one is
 * resolved against the first), exactly as ES's FsRepository checks — so no client can make the
 * server write anywhere else, `..` included.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { globMatcher } from '../../common/wildcard.js';
import { IllegalArgumentError, RepositoryError, RepositoryMissingError } from '../../errors/index.js';
import type { PutRepositoryBody } from '../../dsl/index.js';
import { BlobRepository, type ClusterStateStore } from '../../storage/index.js';

const SECTION = 'snapshot_repositories';
export const FS_TYPE = 'fs';

export interface RepositoryMetadata {
  readonly type: string;
  readonly settings: Readonly<Record<string, string>>;
}

export interface Repository {
  readonly name: string;
  readonly metadata: RepositoryMetadata;
  readonly store: BlobRepository;
  readonly readonly: boolean;
}

/** ES Strings.INVALID_FILENAME_CHARS, in the order ES prints the set. */
const INVALID_FILENAME_CHARS = ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ','];

/** ES RepositoriesService.validateRepositoryName. */
export function validateRepositoryName(name: string): void {
  if (name === '') throw new RepositoryError(name, 'cannot be empty');
  if (name.includes('#')) throw new RepositoryError(name, "must not contain '#'");
  if (INVALID_FILENAME_CHARS.some((c) => name.includes(c))) {
    throw new RepositoryError(name, `must not contain the following characters [${INVALID_FILENAME_CHARS.join(', ')}]`);
  }
}

/** The directory `location` names when it lies under one of `pathRepo` (ES Environment.resolveRepoFile), else null. */
export function resolveRepoLocation(pathRepo: readonly string[], location: string): string | null {
  if (pathRepo.length === 0 || location.includes('\0')) return null;
  const target = resolve(pathRepo[0], location);
  for (const root of pathRepo) {
    const rel = relative(root, target);
    if (rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))) return target;
  }
  return null;
}

function isTrue(v: string | undefined): boolean {
  return v === 'true';
}

export class RepositoriesService {
  private readonly repositories = new Map<string, Repository>();

  constructor(private readonly pathRepo: readonly string[], private readonly state: ClusterStateStore) {
    state.register(SECTION, () => Object.fromEntries([...this.repositories].map(([n, r]) => [n, r.metadata])));
  }

  /** Start-up: the registered repositories come back (their directories are not touched). */
  load(): void {
    const stored = this.state.section<Record<string, RepositoryMetadata>>(SECTION) ?? {};
    for (const [name, metadata] of Object.entries(stored)) {
      try {
        this.repositories.set(name, this.build(name, metadata));
      } catch {
        // path.repo changed since: the repository is gone until registered again (ES logs it as invalid).
      }
    }
  }

  private build(name: string, metadata: RepositoryMetadata): Repository {
    if (metadata.type !== FS_TYPE) throw new RepositoryError(name, `repository type [${metadata.type}] does not exist`);
    const location = metadata.settings.location ?? '';
    const failed = (reason: string) => new RepositoryError(name, 'failed to create repository', new RepositoryError(name, reason));
    if (location === '') throw failed('missing location');
    const dir = resolveRepoLocation(this.pathRepo, location);
    if (dir === null) {
      throw failed(this.pathRepo.length === 0
        ? `location [${location}] doesn't match any of the locations specified by path.repo because this setting is empty`
        : `location [${location}] doesn't match any of the locations specified by path.repo`);
    }
    return { name, metadata, store: new BlobRepository(dir), readonly: isTrue(metadata.settings.readonly) };
  }

  /** PUT /_snapshot/{name}: registers (or replaces) a repository and creates its directory. */
  async put(name: string, body: PutRepositoryBody, inUse: (name: string) => boolean): Promise<void> {
    validateRepositoryName(name);
    const repo = this.build(name, { type: body.type, settings: body.settings });
    if (inUse(name)) throw new IllegalArgumentError(`trying to modify or unregister repository [${name}] that is currently used`);
    try {
      await repo.store.init();
    } catch (e) {
      throw new RepositoryError(name, 'failed to create repository', new RepositoryError(name, `cannot create blob store: ${(e as Error).message}`));
    }
    this.repositories.set(name, repo);
    this.state.markChanged();
    await this.state.persist();
  }

  require(name: string): Repository {
    const repo = this.repositories.get(name);
    if (!repo) throw new RepositoryMissingError(name);
    return repo;
  }

  /** Repositories matching a comma list of names and wildcards (`_all`/`*`/none: every one); a missing concrete name is a 404. */
  resolve(expression: string | undefined): Repository[] {
    const parts = expression === undefined || expression === '' || expression === '_all' ? ['*'] : expression.split(',');
    const out = new Map<string, Repository>();
    for (const p of parts) {
      if (p.includes('*')) {
        const glob = globMatcher(p);
        for (const [n, r] of this.repositories) if (glob.test(n)) out.set(n, r);
      } else out.set(p, this.require(p));
    }
    return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** DELETE /_snapshot/{name}: unregisters (the files stay, as in ES). */
  async delete(expression: string, inUse: (name: string) => boolean): Promise<void> {
    const repos = this.resolve(expression);
    if (repos.length === 0) throw new RepositoryMissingError(expression);
    for (const r of repos) if (inUse(r.name)) throw new IllegalArgumentError(`trying to modify or unregister repository [${r.name}] that is currently used`);
    for (const r of repos) this.repositories.delete(r.name);
    this.state.markChanged();
    await this.state.persist();
  }
}
