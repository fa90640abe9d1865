/**
 * ES's cluster settings (`GET|PUT /_cluster/settings`, ES ClusterSettings and SettingsUpdater): the
 * node's dynamic settings changed while it runs, `persistent` (kept in the cluster state and
 * applied again at start-up) or `transient` (until a restart; deprecated since ES 7.16, as here).
 * The value in effect is transient, else persistent, else the node's own (flag > environment >
 * config file > default); `null` resets a key or a `prefix.*` pattern. A request is validated whole
 * before anything changes, so a bad value leaves every setting as it was.
 *
 * A stored persistent value that no longer validates (a setting that stopped being dynamic, a value
 * a newer rule refuses) is kept as `archived.<key>` with no effect, as ES archives them, and can be
 * removed with `"archived.*": null`.
 */
import { IllegalArgumentError, previewInput } from '../errors/index.js';
import { globMatcher } from '../common/wildcard.js';
import { isPlainObject } from '../common/json.js';
import { nestSettings } from '../index/index.js';
import type { ClusterStateStore } from '../storage/index.js';

/** A setting `PUT /_cluster/settings` may change, and how the node applies a new value. */
export interface DynamicSetting {
  readonly key: string;
  /** Parses a value, or throws IllegalArgumentError with the reason ES would give. */
  parse(raw: string): unknown;
  /** Puts a parsed value into effect. */
  apply(value: unknown): void;
  /** The node's own value, parsed: what a reset goes back to. */
  readonly nodeValue: unknown;
}

/** One of the node's settings as `include_defaults` shows it (secrets masked by the caller). */
export interface NodeSetting {
  readonly key: string;
  readonly value: string;
}

export type SettingsScope = 'persistent' | 'transient';

/** A scope's changes: a string sets a key; null resets a key or a `prefix.*` pattern. */
export type SettingsUpdate = ReadonlyMap<string, string | null>;

export interface ClusterSettingsView {
  readonly persistent: ReadonlyMap<string, string>;
  readonly transient: ReadonlyMap<string, string>;
}

const SECTION = 'cluster_settings';
const ARCHIVED = 'archived.';

interface StoredClusterSettings {
  readonly persistent?: Record<string, string>;
}

export class ClusterSettingsService {
  private persistent = new Map<string, string>();
  private transient = new Map<string, string>();
  private readonly dynamic: ReadonlyMap<string, DynamicSetting>;

  constructor(private readonly state: ClusterStateStore, dynamic: readonly DynamicSetting[], private readonly nodeSettings: readonly NodeSetting[]) {
    this.dynamic = new Map(dynamic.map((d) => [d.key, d]));
    for (const [key, value] of Object.entries(state.section<StoredClusterSettings>(SECTION)?.persistent ?? {})) {
      this.persistent.set(key.startsWith(ARCHIVED) || this.parses(key, value) ? key : ARCHIVED + key, value);
    }
    state.register(SECTION, (): StoredClusterSettings => ({ persistent: Object.fromEntries(this.persistent) }));
    for (const key of this.persistent.keys()) if (this.dynamic.has(key)) this.applyEffective(key);
  }

  /** Both scopes' explicit settings, flat. */
  view(): ClusterSettingsView {
    return { persistent: sorted(this.persistent), transient: sorted(this.transient) };
  }

  /** Every node setting no scope overrides, with its value in effect (`include_defaults`). */
  defaults(): ReadonlyMap<string, string> {
    const out = new Map<string, string>();
    for (const s of this.nodeSettings) if (!this.persistent.has(s.key) && !this.transient.has(s.key)) out.set(s.key, s.value);
    return sorted(out);
  }

  /**
   * Validates both scopes' changes, then applies and persists them. Returns what each scope
   * changed (ES's response lists only those).
   */
  async update(persistent: SettingsUpdate, transient: SettingsUpdate): Promise<ClusterSettingsView> {
    const nextPersistent = this.changed('persistent', this.persistent, persistent);
    const nextTransient = this.changed('transient', this.transient, transient);
    const touched = new Set<string>();
    for (const [scope, next] of [[this.persistent, nextPersistent], [this.transient, nextTransient]] as const) {
      for (const key of new Set([...scope.keys(), ...next.keys()])) if (scope.get(key) !== next.get(key)) touched.add(key);
    }
    this.persistent = nextPersistent;
    this.transient = nextTransient;
    for (const key of touched) if (this.dynamic.has(key)) this.applyEffective(key);
    this.state.markChanged();
    await this.state.persist();
    return { persistent: setOnly(persistent), transient: setOnly(transient) };
  }

  /** A scope after `update`, or the ES error for the first key it cannot take. */
  private changed(scope: SettingsScope, current: ReadonlyMap<string, string>, update: SettingsUpdate): Map<string, string> {
    const next = new Map(current);
    for (const [key, value] of update) {
      if (value === null) {
        if (key.endsWith('*')) {
          const matches = globMatcher(key);
          for (const k of current.keys()) if (matches.test(k)) next.delete(k);
          continue;
        }
        if (!this.dynamic.has(key) && !current.has(key)) this.refuse(scope, key);
        next.delete(key);
        continue;
      }
      if (!this.dynamic.has(key)) this.refuse(scope, key);
      this.dynamic.get(key)!.parse(value);
      next.set(key, value);
    }
    return next;
  }

  private refuse(scope: SettingsScope, key: string): never {
    const known = this.nodeSettings.some((s) => s.key === key);
    throw new IllegalArgumentError(`${scope} setting [${previewInput(key)}], ${known ? 'not dynamically updateable' : 'not recognized'}`);
  }

  private parses(key: string, value: string): boolean {
    const def = this.dynamic.get(key);
    if (!def) return false;
    try {
      def.parse(value);
      return true;
    } catch {
      return false;
    }
  }

  private applyEffective(key: string): void {
    const def = this.dynamic.get(key)!;
    const raw = this.transient.get(key) ?? this.persistent.get(key);
    def.apply(raw === undefined ? def.nodeValue : def.parse(raw));
  }
}

/** A request body's `persistent` or `transient` object, flattened (nested or dotted keys). */
export function flattenClusterSettings(scope: SettingsScope, input: unknown): Map<string, string | null> {
  const out = new Map<string, string | null>();
  if (input === undefined || input === null) return out;
  if (!isPlainObject(input)) throw new IllegalArgumentError(`[${scope}] must be an object`);
  const walk = (obj: Record<string, unknown>, prefix: string) => {
    for (const [k, v] of Object.entries(obj)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (isPlainObject(v)) walk(v, key);
      else if (v === null) out.set(key, null);
      else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.set(key, String(v));
      else throw new IllegalArgumentError(`${scope} setting [${previewInput(key)}] must be a string, a number, a boolean or null`);
    }
  };
  walk(input, '');
  return out;
}

/** Settings as the API renders them: nested objects, or dotted keys with `flat_settings`. */
export function renderClusterSettings(settings: ReadonlyMap<string, string>, flat: boolean): Record<string, unknown> {
  return flat ? Object.fromEntries(settings) : nestSettings(settings);
}

function sorted(map: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function setOnly(update: SettingsUpdate): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of update) if (v !== null) out.set(k, v);
  return sorted(out);
}
