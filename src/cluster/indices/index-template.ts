/**
 * Composable index templates and component templates as ES parses, validates and renders them
 * (ComposableIndexTemplate, ComponentTemplate, Template; MetadataIndexTemplateService.validate).
 * A template's `template` section keeps settings flat (`index.*`, as ES stores them), mappings as
 * sent (validated, merged at composition) and aliases parsed.
 */
import {
  ActionRequestValidationError, IllegalArgumentError, InvalidIndexTemplateError, MapperParsingError, XContentParseError,
} from '../../errors/index.js';
import { isObject, parseIndexAliases, readBoolean, readNumber, readObject, readStringArray, tokenName, type AliasProperties, type JsonObject } from '../../dsl/index.js';
import { objectField, unknownField } from '../../dsl/object-parser.js';
import { flattenSettings, nestSettings, parseRootMapping, validateSettings, type SettingValue } from '../../index/index.js';
import { render, validateAliasName } from './aliases.js';

/** The `template` section of both kinds of templates (ES Template). */
export interface TemplateSection {
  readonly settings: ReadonlyMap<string, SettingValue> | null;
  readonly mappings: JsonObject | null;
  readonly aliases: ReadonlyMap<string, AliasProperties> | null;
}

export interface ComponentTemplate {
  readonly template: TemplateSection;
  readonly version: number | null;
  readonly meta: JsonObject | null;
  readonly deprecated: boolean | null;
}

export interface ComposableIndexTemplate {
  readonly indexPatterns: readonly string[];
  readonly template: TemplateSection | null;
  readonly composedOf: readonly string[];
  readonly priority: number | null;
  readonly version: number | null;
  readonly meta: JsonObject | null;
  readonly allowAutoCreate: boolean | null;
  readonly ignoreMissingComponentTemplates: readonly string[];
  readonly deprecated: boolean | null;
}

const TEMPLATE_FIELDS = ['settings', 'mappings', 'aliases', 'lifecycle', 'data_stream_options'];
const INDEX_TEMPLATE_FIELDS = [
  'index_patterns', 'template', 'composed_of', 'priority', 'version', '_meta', 'data_stream', 'allow_auto_create', 'ignore_missing_component_templates', 'deprecated',
];
const COMPONENT_TEMPLATE_FIELDS = ['template', 'version', '_meta', 'deprecated'];

function readLong(owner: string, field: string, v: unknown): number {
  const n = readNumber(owner, field, v);
  if (!Number.isInteger(n)) throw new XContentParseError(`[${owner}] failed to parse field [${field}]`, new IllegalArgumentError(`[${field}] expected an integer but found [${String(v)}]`));
  return n;
}

function parseTemplateSection(v: unknown): TemplateSection {
  const body = readObject('index_template', 'template', v);
  let settings: Map<string, SettingValue> | null = null;
  let mappings: JsonObject | null = null;
  let aliases: Map<string, AliasProperties> | null = null;
  for (const [k, value] of Object.entries(body)) {
    if (!TEMPLATE_FIELDS.includes(k)) throw unknownField('template', k, TEMPLATE_FIELDS);
    if (value === null) continue;
    if (k === 'settings') settings = flattenSettings(value);
    else if (k === 'mappings') mappings = readMappings(value);
    else if (k === 'aliases') aliases = parseIndexAliases(value);
    else throw new IllegalArgumentError(`[template.${k}] is not supported by this server (data streams and lifecycles are out of scope)`);
  }
  return { settings, mappings, aliases };
}

/** Mappings in a template: an object, optionally under the `_doc` type name ES 8 still accepts. */
function readMappings(v: unknown): JsonObject {
  if (!isObject(v)) throw new MapperParsingError(`Failed to parse mapping: Expected map for property [mappings] but got a ${tokenName(v)}`);
  const keys = Object.keys(v);
  if (keys.length === 1 && keys[0] === '_doc' && isObject(v._doc)) return v._doc;
  return v;
}

/** Validates a template section on its own (settings and mappings as they would be for an index). */
function validateSection(section: TemplateSection): void {
  if (section.settings) validateSettings(section.settings);
  if (section.mappings) {
    try {
      parseRootMapping(section.mappings);
    } catch (e) {
      if (e instanceof MapperParsingError) throw new MapperParsingError(`Failed to parse mapping: ${e.message}`, e);
      throw e;
    }
  }
  if (section.aliases) for (const alias of section.aliases.keys()) validateAliasName(alias);
}

export function parseComponentTemplate(body: JsonObject): ComponentTemplate {
  let template: TemplateSection | null = null;
  let version: number | null = null;
  let meta: JsonObject | null = null;
  let deprecated: boolean | null = null;
  for (const [k, v] of Object.entries(body)) {
    if (!COMPONENT_TEMPLATE_FIELDS.includes(k)) throw unknownField('component_template', k, COMPONENT_TEMPLATE_FIELDS);
    switch (k) {
      case 'template': template = objectField('component_template', k, () => parseTemplateSection(v)); break;
      case 'version': version = v === null ? null : readLong('component_template', k, v); break;
      case '_meta': meta = v === null ? null : readObject('component_template', k, v); break;
      case 'deprecated': deprecated = readBoolean('component_template', k, v); break;
    }
  }
  if (template === null) throw new IllegalArgumentError('Required [template]');
  validateSection(template);
  return { template, version, meta, deprecated };
}

export function parseIndexTemplate(name: string, body: JsonObject): ComposableIndexTemplate {
  const owner = 'index_template';
  let indexPatterns: string[] | null = null;
  let template: TemplateSection | null = null;
  let composedOf: string[] = [];
  let priority: number | null = null;
  let version: number | null = null;
  let meta: JsonObject | null = null;
  let allowAutoCreate: boolean | null = null;
  let ignoreMissing: string[] = [];
  let deprecated: boolean | null = null;
  for (const [k, v] of Object.entries(body)) {
    if (!INDEX_TEMPLATE_FIELDS.includes(k)) throw unknownField(owner, k, INDEX_TEMPLATE_FIELDS);
    if (v === null && k !== 'index_patterns') continue;
    switch (k) {
      case 'index_patterns': indexPatterns = readStringArray(owner, k, v); break;
      case 'template': template = objectField(owner, k, () => parseTemplateSection(v)); break;
      case 'composed_of': composedOf = readStringArray(owner, k, v); break;
      case 'priority': priority = readLong(owner, k, v); break;
      case 'version': version = readLong(owner, k, v); break;
      case '_meta': meta = readObject(owner, k, v); break;
      case 'allow_auto_create': allowAutoCreate = readBoolean(owner, k, v); break;
      case 'ignore_missing_component_templates': ignoreMissing = readStringArray(owner, k, v); break;
      case 'deprecated': deprecated = readBoolean(owner, k, v); break;
      case 'data_stream': throw new IllegalArgumentError('[data_stream] index templates are not supported by this server (data streams are out of scope)');
    }
  }
  if (indexPatterns === null) throw new IllegalArgumentError('Required [index_patterns]');
  if (priority !== null && priority < 0) throw new ActionRequestValidationError(['index template priority must be >= 0']);
  const problems = templateNameProblems(name, indexPatterns);
  if (problems.length > 0) throw new InvalidIndexTemplateError(name, new ActionRequestValidationError(problems).reason);
  if (template) validateSection(template);
  return { indexPatterns, template, composedOf, priority, version, meta, allowAutoCreate, ignoreMissingComponentTemplates: ignoreMissing, deprecated };
}

const FILE_NAME_CHARS = ['\\', '/', '?', '"', '<', '>', '|', ' ', ','];

/** MetadataIndexTemplateService.validate's name and pattern checks, in ES's order and words. */
function templateNameProblems(name: string, patterns: readonly string[]): string[] {
  const out: string[] = [];
  if (name.includes(' ')) out.push('name must not contain a space');
  if (name.startsWith('_')) out.push("name must not start with '_'");
  if (name.toLowerCase() !== name) out.push('name must be lower cased');
  for (const p of patterns) {
    if (p.includes(' ')) out.push(`index_pattern [${p}] must not contain a space`);
    if (p.includes(',')) out.push(`index_pattern [${p}] must not contain a ','`);
    if (p.includes('#')) out.push(`index_pattern [${p}] must not contain a '#'`);
    if (p.includes(':')) out.push(`index_pattern [${p}] must not contain a ':'`);
    if (p.startsWith('_')) out.push(`index_pattern [${p}] must not start with '_'`);
    if (FILE_NAME_CHARS.some((c) => p.includes(c))) out.push(`index_pattern [${p}] must not contain the following characters [ , ", \\, <, |, ,, >, /, ?]`);
  }
  return out;
}

export function renderSection(section: TemplateSection, flatSettings = false): JsonObject {
  const out: JsonObject = {};
  if (section.settings) out.settings = flatSettings ? Object.fromEntries([...section.settings].sort(([a], [b]) => (a < b ? -1 : 1))) : nestSettings(section.settings);
  if (section.mappings) out.mappings = section.mappings;
  if (section.aliases) out.aliases = Object.fromEntries([...section.aliases].map(([a, p]) => [a, render(p)]));
  return out;
}

export function renderComponentTemplate(t: ComponentTemplate, flatSettings = false): JsonObject {
  return {
    template: renderSection(t.template, flatSettings),
    ...(t.version !== null ? { version: t.version } : {}),
    ...(t.meta !== null ? { _meta: t.meta } : {}),
    ...(t.deprecated !== null ? { deprecated: t.deprecated } : {}),
  };
}

export function renderIndexTemplate(t: ComposableIndexTemplate, flatSettings = false): JsonObject {
  return {
    index_patterns: t.indexPatterns,
    ...(t.template ? { template: renderSection(t.template, flatSettings) } : {}),
    composed_of: t.composedOf,
    ...(t.priority !== null ? { priority: t.priority } : {}),
    ...(t.version !== null ? { version: t.version } : {}),
    ...(t.meta !== null ? { _meta: t.meta } : {}),
    ...(t.allowAutoCreate !== null ? { allow_auto_create: t.allowAutoCreate } : {}),
    ...(t.ignoreMissingComponentTemplates.length > 0 ? { ignore_missing_component_templates: t.ignoreMissingComponentTemplates } : {}),
    ...(t.deprecated !== null ? { deprecated: t.deprecated } : {}),
  };
}
