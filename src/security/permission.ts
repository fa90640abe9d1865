/**
 * What an authenticated caller may do. A permission is a chain of layers; each layer is the union
 * of a set of role descriptors, and an action is allowed only if every layer allows it. An API
 * key's chain is its own role descriptors (when it has any) followed by the chain of the key that
 * created it (ES's `limited_by`), so a derived key can never exceed its creator.
 */
import { globMatcher, type Glob } from '../common/wildcard.js';
import { compileRegexp, matches } from '../common/pattern/index.js';
import { privilegeGrants, privilegePatterns, type PrivilegeKind } from './privileges.js';
import type { IndicesPrivileges, RoleDescriptors } from './role-descriptors.js';

const MATCHES_NOTHING: Glob = { test: () => false };

/**
 * Index name patterns: `*` wildcards, or a `/regex/` in Lucene's RegExp syntax compiled to an
 * automaton (ES Automatons.pattern), so a key holder cannot make authorization backtrack. A regexp
 * that does not parse or is too complex to determinize matches no index.
 */
function namePattern(pattern: string): Glob {
  if (pattern.length > 1 && pattern.startsWith('/') && pattern.endsWith('/')) {
    try {
      const dfa = compileRegexp(pattern.slice(1, -1));
      return { test: (name) => matches(dfa, name) };
    } catch {
      return MATCHES_NOTHING;
    }
  }
  return globMatcher(pattern);
}

interface CompiledGroup {
  readonly names: readonly Glob[];
  readonly matchesAll: boolean;
  readonly privileges: readonly string[];
  /** Whether `privileges` grant an action, by action name (see groupGrants). */
  readonly grantsAction: Map<string, boolean>;
}

function compileGroup(g: IndicesPrivileges): CompiledGroup {
  return { names: g.names.map(namePattern), matchesAll: g.names.includes('*'), privileges: g.privileges, grantsAction: new Map() };
}

/**
 * Entries a group remembers: the server's own action names are a few dozen, and `_has_privileges`
 * patterns (client input) must not grow the memo without bound.
 */
const GRANTS_MEMO_LIMIT = 256;

/**
 * Whether the group's privileges grant `action`. Every index request asks this (a glob test per
 * privilege pattern), and the answer never changes for a group: remembered by action name.
 */
function groupGrants(g: CompiledGroup, action: string): boolean {
  let granted = g.grantsAction.get(action);
  if (granted === undefined) {
    granted = g.privileges.some((p) => grants('index', p, action));
    if (g.grantsAction.size < GRANTS_MEMO_LIMIT) g.grantsAction.set(action, granted);
  }
  return granted;
}

/** Whether `privilege` (a name, or an action name/pattern) grants `action`. */
function grants(kind: PrivilegeKind, privilege: string, action: string): boolean {
  return privilege.includes(':') ? globMatcher(privilege).test(action) : privilegeGrants(kind, privilege, action);
}

class Layer {
  private readonly cluster: readonly string[];
  private readonly groups: readonly CompiledGroup[];

  constructor(roles: RoleDescriptors) {
    this.cluster = Object.values(roles).flatMap((r) => r.cluster);
    this.groups = Object.values(roles).flatMap((r) => r.indices.map(compileGroup));
  }

  allowsCluster(action: string, excluding?: ReadonlySet<string>): boolean {
    return this.cluster.some((p) => !excluding?.has(p) && grants('cluster', p, action));
  }

  allowsIndex(action: string, index: string): boolean {
    return this.groups.some((g) => groupGrants(g, action) && g.names.some((re) => re.test(index)));
  }

  allowsIndexAnywhere(action: string): boolean {
    return this.groups.some((g) => groupGrants(g, action));
  }

  allowsEveryIndex(action: string): boolean {
    return this.groups.some((g) => g.matchesAll && groupGrants(g, action));
  }
}

/**
 * How many (action, index) answers one permission remembers, and the longest index name it
 * remembers one for (ES's limit on an index name, 255 bytes): a public key's requests can name
 * anything, so what they leave behind stays under ~1 MB per permission.
 */
const INDEX_ANSWERS_LIMIT = 4096;
const INDEX_ANSWER_NAME_LIMIT = 255;
/** Actions allowsEveryIndex remembers: the server's own action names are a few dozen. */
const EVERY_INDEX_ANSWERS_LIMIT = 256;

export class Permission {
  private readonly layers: readonly Layer[];
  /** action → index name → allowsIndex's answer. */
  private readonly indexAnswers = new Map<string, Map<string, boolean>>();
  private indexAnswerCount = 0;
  /** action → allowsEveryIndex's answer (asked by every index request; actions are the server's own names). */
  private readonly everyIndexAnswers = new Map<string, boolean>();

  /** `chain[0]` is the caller's own roles; later entries are the limits inherited from its creators. */
  constructor(readonly chain: readonly RoleDescriptors[]) {
    this.layers = chain.map((roles) => new Layer(roles));
  }

  /** A cluster action; `excluding` leaves named privileges out (e.g. to tell manage_own_api_key from manage_api_key). */
  allowsCluster(action: string, excluding?: ReadonlySet<string>): boolean {
    return this.layers.every((l) => l.allowsCluster(action, excluding));
  }

  allowsIndex(action: string, index: string): boolean {
    // Remembered (a permission never changes): a restricted key's `_search` asks the same question
    // on every request, which otherwise runs every layer's groups and name patterns again.
    let byIndex = this.indexAnswers.get(action);
    let answer = byIndex?.get(index);
    if (answer !== undefined) return answer;
    answer = this.layers.every((l) => l.allowsIndex(action, index));
    // Bounded: index names come from requests.
    if (this.indexAnswerCount < INDEX_ANSWERS_LIMIT && index.length <= INDEX_ANSWER_NAME_LIMIT) {
      if (byIndex === undefined) this.indexAnswers.set(action, (byIndex = new Map()));
      byIndex.set(index, answer);
      this.indexAnswerCount++;
    }
    return answer;
  }

  /** For requests that name their indices per item (`_bulk`): may this action run on some index? */
  allowsIndexAnywhere(action: string): boolean {
    return this.layers.every((l) => l.allowsIndexAnywhere(action));
  }

  /** True when the action is allowed on every index name, so index expressions need no filtering. */
  allowsEveryIndex(action: string): boolean {
    // Remembered, as allowsIndex: one map lookup instead of every layer's groups on each request.
    let answer = this.everyIndexAnswers.get(action);
    if (answer === undefined) {
      answer = this.layers.every((l) => l.allowsEveryIndex(action));
      if (this.everyIndexAnswers.size < EVERY_INDEX_ANSWERS_LIMIT) this.everyIndexAnswers.set(action, answer);
    }
    return answer;
  }

  /**
   * Whether this permission covers everything the named privilege (or action pattern) grants
   * (`_has_privileges`). A pattern is covered when it is itself matched as an action name, which is
   * exact for ES's hierarchical action names.
   */
  hasClusterPrivilege(name: string): boolean {
    const patterns = privilegePatterns('cluster', name);
    return patterns.length > 0 && patterns.every((p) => this.allowsCluster(p));
  }

  hasIndexPrivilege(name: string, index: string): boolean {
    const patterns = privilegePatterns('index', name);
    return patterns.length > 0 && patterns.every((p) => this.allowsIndex(p, index));
  }

  /**
   * The permission of a key with roles `own` created by a caller holding `creator`. Empty `own`
   * (ES: no role descriptors) is a snapshot of the creator's permission.
   */
  static derived(own: RoleDescriptors, creator: Permission): Permission {
    return new Permission(Object.keys(own).length > 0 ? [own, ...creator.chain] : creator.chain);
  }
}
