/**
 * The node's composable index templates and component templates (ES MetadataIndexTemplateService):
 * stored in the cluster state's `templates` section (PUT/DELETE acknowledged once it is saved),
 * matched against a new index's name (highest priority wins; equal priorities may not overlap) and
 * composed into the settings, mappings and aliases the index is created with: component templates in
 * `composed_of` order, then the template's own section, then the create request — later wins.
 */
import { wildcardsIntersect } from '../../common/wildcard-intersection.js';
import { isPlainObject } from '../../common/json.js';
import {
  IllegalArgumentError, IndexTemplateMissingError, InvalidIndexTemplateError, MapperParsingError, ResourceNotFoundError, type EsError,
} from '../../errors/index.js';
import type { AliasProperties, JsonObject } from '../../dsl/index.js';
import { parseRootMapping, validateSettings, type SettingValue } from '../../index/index.js';
import type { ClusterStateStore } from '../../storage/index.js';
import {
  parseComponentTemplate, parseIndexTemplate, renderComponentTemplate, renderIndexTemplate, renderSection,
  type ComponentTemplate, type ComposableIndexTemplate, type TemplateSection,
} from './index-template.js';

const SECTION = 'templates';

/** The `templates` cluster-state section: templates as GET renders them, by name. */
interface StoredTemplates {
  readonly component_templates?: Record<string, JsonObject>;
  readonly index_templates?: Record<string, JsonObject>;
}

/** What a new index gets from its matching template. */
export interface ComposedTemplate {
  readonly name: string;
  readonly settings: ReadonlyMap<string, SettingValue>;
  readonly mappings: JsonObject | null;
  readonly aliases: ReadonlyMap<string, AliasProperties>;
  readonly allowAutoCreate: boolean | null;
}

/** What `_cat/templates` shows of a composable index template. */
export interface IndexTemplateSummary {
  readonly name: string;
  readonly indexPatterns: readonly string[];
  readonly priority: number | null;
  readonly version: number | null;
  readonly composedOf: readonly string[];
}

/** Names in a GET/DELETE path: a comma list of names and `*` patterns; none means all. */
function namesMatching(expression: string | undefined, names: Iterable<string>): { found: string[]; missing: string[] } {
  const all = [...names].sort();
  if (expression === undefined || expression === '' || expression === '_all' || expression === '*') return { found: all, missing: [] };
  const found = new Set<string>();
  const missing: string[] = [];
  for (const part of expression.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const matches = all.filter((n) => wildcardsIntersect(part, n));
    if (matches.length === 0 && !part.includes('*')) missing.push(part);
    for (const m of matches) found.add(m);
  }
  return { found: all.filter((n) => found.has(n)), missing };
}

/**
 * Mappings merged as ES composes templates (MergeReason.INDEX_TEMPLATE): objects' `properties`
 * merge field by field, recursively for object fields; a field defined again replaces the earlier
 * definition, as does any other root member.
 */
export function mergeTemplateMappings(base: JsonObject | null, next: JsonObject | null): JsonObject | null {
  if (next === null) return base;
  if (base === null) return next;
  const out: JsonObject = { ...base };
  for (const [k, v] of Object.entries(next)) {
    out[k] = k === 'properties' && isPlainObject(base.properties) && isPlainObject(v) ? mergeProperties(base.properties, v) : v;
  }
  return out;
}

function mergeProperties(base: JsonObject, next: JsonObject): JsonObject {
  const out: JsonObject = { ...base };
  for (const [field, def] of Object.entries(next)) {
    const prev = base[field];
    const isObjectField = (d: unknown) => isPlainObject(d) && isPlainObject(d.properties) && (d.type === undefined || d.type === 'object' || d.type === 'nested');
    out[field] = isObjectField(prev) && isObjectField(def) && (prev as JsonObject).type === (def as JsonObject).type
      ? mergeTemplateMappings(prev as JsonObject, def as JsonObject)
      : def;
  }
  return out;
}

/**
 * A GET of templates (ES's get actions): the named ones, `*` patterns, or all; a concrete name that
 * matches nothing is resource_not_found_exception, a pattern that matches nothing an empty 404 list.
 */
function listTemplates<T>(
  what: string, member: string, expression: string | undefined, templates: ReadonlyMap<string, T>, render: (t: T) => JsonObject,
): { status: number; body: JsonObject } {
  const { found } = namesMatching(expression, templates.keys());
  if (found.length === 0 && expression !== undefined && !expression.includes('*')) throw new ResourceNotFoundError(`${what} matching [${expression}] not found`);
  return {
    status: found.length === 0 && expression !== undefined ? 404 : 200,
    body: { [`${member}s`]: found.map((n) => ({ name: n, [member]: render(templates.get(n)!) })) },
  };
}

export class IndexTemplateService {
  private readonly components = new Map<string, ComponentTemplate>();
  private readonly templates = new Map<string, ComposableIndexTemplate>();

  constructor(private readonly state: ClusterStateStore) {
    const stored = state.section<StoredTemplates>(SECTION) ?? {};
    for (const [name, body] of Object.entries(stored.component_templates ?? {})) this.components.set(name, parseComponentTemplate(body));
    for (const [name, body] of Object.entries(stored.index_templates ?? {})) this.templates.set(name, parseIndexTemplate(name, body));
    state.register(SECTION, (): StoredTemplates => ({
      component_templates: Object.fromEntries([...this.components].map(([n, t]) => [n, renderComponentTemplate(t)])),
      index_templates: Object.fromEntries([...this.templates].map(([n, t]) => [n, renderIndexTemplate(t)])),
    }));
  }

  private async changed(): Promise<void> {
    this.state.markChanged();
    await this.state.persist();
  }

  async putComponentTemplate(name: string, body: JsonObject, create: boolean): Promise<void> {
    if (create && this.components.has(name)) throw new IllegalArgumentError(`component template [${name}] already exists`);
    const template = parseComponentTemplate(body);
    // Index templates built on it must still compose (ES validates each one that uses it).
    const next = new Map(this.components).set(name, template);
    for (const [tname, t] of this.templates) if (t.composedOf.includes(name)) this.validateComposition(tname, t, next);
    this.components.set(name, template);
    await this.changed();
  }

  getComponentTemplates(expression: string | undefined, flatSettings = false): { status: number; body: JsonObject } {
    return listTemplates('component template', 'component_template', expression, this.components, (t) => renderComponentTemplate(t, flatSettings));
  }

  async deleteComponentTemplates(expression: string): Promise<void> {
    const { found, missing } = namesMatching(expression, this.components.keys());
    if (missing.length > 0 || found.length === 0) throw new IndexTemplateMissingError(missing[0] ?? expression);
    const users = [...this.templates].filter(([, t]) => t.composedOf.some((c) => found.includes(c))).map(([n]) => n).sort();
    if (users.length > 0) {
      const inUse = found.filter((c) => users.some((u) => this.templates.get(u)!.composedOf.includes(c)));
      throw new IllegalArgumentError(`component templates [${inUse.join(', ')}] cannot be removed as they are still in use by index templates [${users.join(', ')}]`);
    }
    for (const n of found) this.components.delete(n);
    await this.changed();
  }

  async putIndexTemplate(name: string, body: JsonObject, create: boolean): Promise<void> {
    if (create && this.templates.has(name)) throw new IllegalArgumentError(`index template [${name}] already exists`);
    const template = parseIndexTemplate(name, body);
    this.checkOverlap(name, template);
    const missing = template.composedOf.filter((c) => !this.components.has(c) && !template.ignoreMissingComponentTemplates.includes(c));
    if (missing.length > 0) {
      throw new InvalidIndexTemplateError(name, `index template [${name}] specifies component templates [${missing.join(', ')}] that do not exist`);
    }
    this.validateComposition(name, template, this.components);
    this.templates.set(name, template);
    await this.changed();
  }

  /** ES: two templates with the same priority whose patterns can match one name are refused. */
  private checkOverlap(name: string, template: ComposableIndexTemplate): void {
    const priority = template.priority ?? 0;
    const clashes: Array<[string, readonly string[]]> = [];
    for (const [other, t] of this.templates) {
      if (other === name || (t.priority ?? 0) !== priority) continue;
      if (template.indexPatterns.some((p) => t.indexPatterns.some((q) => wildcardsIntersect(p, q)))) clashes.push([other, t.indexPatterns]);
    }
    if (clashes.length === 0) return;
    throw new IllegalArgumentError(
      `index template [${name}] has index patterns [${template.indexPatterns.join(', ')}] matching patterns from existing templates [${clashes.map(([n]) => n).join(',')}] ` +
      `with patterns (${clashes.map(([n, p]) => `${n} => [${p.join(', ')}]`).join(',')}) that have the same priority [${priority}], ` +
      'multiple index templates may not match during index creation, please use a different priority',
    );
  }

  /** The composed settings and mappings must make a valid index (ES validateIndexTemplateV2). */
  private validateComposition(name: string, template: ComposableIndexTemplate, components: ReadonlyMap<string, ComponentTemplate>): void {
    const composed = this.composeWith(name, template, components);
    validateSettings(composed.settings);
    if (composed.mappings === null) return;
    try {
      parseRootMapping(composed.mappings);
    } catch (e) {
      const cause = e instanceof MapperParsingError ? new MapperParsingError(`Failed to parse mapping: ${e.message}`, e) : (e as EsError);
      throw new IllegalArgumentError(`composable template [${name}] template after composition is invalid`, new IllegalArgumentError(`invalid composite mappings for [${name}]`, cause));
    }
  }

  getIndexTemplates(expression: string | undefined, flatSettings = false): { status: number; body: JsonObject } {
    return listTemplates('index template', 'index_template', expression, this.templates, (t) => renderIndexTemplate(t, flatSettings));
  }

  /** The summaries of the templates `expression` names (as GET reads it; names that match nothing are no error), by name (`_cat/templates`). */
  indexTemplateSummaries(expression?: string): IndexTemplateSummary[] {
    return namesMatching(expression, this.templates.keys()).found.map((name) => {
      const t = this.templates.get(name)!;
      return { name, indexPatterns: t.indexPatterns, priority: t.priority, version: t.version, composedOf: t.composedOf };
    });
  }

  async deleteIndexTemplates(expression: string): Promise<void> {
    const { found, missing } = namesMatching(expression, this.templates.keys());
    if (missing.length > 0 || found.length === 0) throw new IndexTemplateMissingError(missing[0] ?? expression);
    for (const n of found) this.templates.delete(n);
    await this.changed();
  }

  /**
   * The templates whose patterns match `index`, highest priority first (ES findV2Template); a
   * hidden index skips templates with the global pattern `*`.
   */
  private matching(index: string, hidden: boolean): Array<[string, ComposableIndexTemplate]> {
    return [...this.templates]
      .filter(([, t]) => t.indexPatterns.some((p) => wildcardsIntersect(p, index)) && !(hidden && t.indexPatterns.includes('*')))
      .sort(([an, a], [bn, b]) => (b.priority ?? 0) - (a.priority ?? 0) || (an < bn ? -1 : 1));
  }

  /** What the template that matches `index` gives it, or null when none matches. */
  templateFor(index: string, hidden: boolean): ComposedTemplate | null {
    const [match] = this.matching(index, hidden);
    return match ? this.composeWith(match[0], match[1], this.components) : null;
  }

  private composeWith(name: string, t: ComposableIndexTemplate, components: ReadonlyMap<string, ComponentTemplate>): ComposedTemplate {
    const sections: TemplateSection[] = t.composedOf.flatMap((c) => {
      const ct = components.get(c);
      return ct ? [ct.template] : [];
    });
    if (t.template) sections.push(t.template);
    const settings = new Map<string, SettingValue>();
    let mappings: JsonObject | null = null;
    const aliases = new Map<string, AliasProperties>();
    for (const s of sections) {
      for (const [k, v] of s.settings ?? []) settings.set(k, v);
      mappings = mergeTemplateMappings(mappings, s.mappings);
      for (const [a, p] of s.aliases ?? []) aliases.set(a, p);
    }
    return { name, settings, mappings, aliases, allowAutoCreate: t.allowAutoCreate };
  }

  /** `POST /_index_template/_simulate_index/{index}`: what the index would be created with, and the templates it beat. */
  simulateIndex(index: string): JsonObject {
    const [winner, ...rest] = this.matching(index, false);
    if (!winner) return {};
    const composed = this.composeWith(winner[0], winner[1], this.components);
    return {
      template: renderSection({ settings: composed.settings, mappings: composed.mappings ?? {}, aliases: composed.aliases }),
      overlapping: rest.map(([n, t]) => ({ name: n, index_patterns: t.indexPatterns })),
    };
  }
}
