/**
 * Flattening a mapping into `ResolvedField`s keyed by full path (multi-fields included), with every
 * default filled in once, so indexing and search never re-derive them.
 */
import { MapperParsingError } from '../../errors/index.js';
import { DEFAULT_TEXT_SETTINGS, resolveTextContext, type IndexTextSettings, type TextContext } from '../text-analysis.js';
import type { FieldMapper, Mapper, ObjectMapper, ResolvedField, RootMapping } from './types.js';
import { isAnalyzedTextType, isFeatureType, DEFAULT_DATE_FORMAT, DEFAULT_POSITION_INCREMENT_GAP, NO_IGNORE_ABOVE } from './types.js';
import { IllegalArgumentError } from '../../errors/index.js';
import { completionOptions } from './completion-mapping.js';
import { searchAsYouTypeRoot, searchAsYouTypeSubfields } from './search-as-you-type.js';
import { denseVectorOptions } from './dense-vector-mapping.js';

export interface ResolvedMapping {
  readonly fields: ReadonlyMap<string, ResolvedField>;
  /** Full paths of object mappers (for `exists` on objects and wildcard field expansion). */
  readonly objects: ReadonlySet<string>;
  /** Number of mappers counted against `index.mapping.total_fields.limit`. */
  readonly totalFields: number;
  /** The analysis and similarity settings the fields were resolved against (dynamic fields use them too). */
  readonly text: IndexTextSettings;
}

/**
 * ES's analyzer defaults for text fields: `analyzer` else the index's `default`; the search
 * analyzer is `search_analyzer`, else the field's `analyzer`, else `default_search`; the quote
 * analyzer likewise down to `default_search_quoted`. Every name must exist in the index.
 */
function analyzerNames(path: string, p: Readonly<Record<string, unknown>>, text: TextContext): [string, string, string] {
  const given = (k: string) => p[k] as string | undefined;
  const analyzer = given('analyzer') ?? 'default';
  const search = given('search_analyzer') ?? given('analyzer') ?? 'default_search';
  const quote = given('search_quote_analyzer') ?? given('search_analyzer') ?? given('analyzer') ?? 'default_search_quoted';
  for (const name of [analyzer, search, quote]) {
    if (!text.analysis.analyzer(name)) throw new MapperParsingError(`analyzer [${name}] has not been configured in mappings`);
  }
  return [analyzer, search, quote];
}

function resolveField(path: string, m: FieldMapper, isMultiField: boolean, settings: IndexTextSettings, text: TextContext): ResolvedField {
  const p = m.params;
  const [analyzer, searchAnalyzer, searchQuoteAnalyzer] = analyzerNames(path, p, text);
  const normalizerName = m.type === 'keyword' ? (p.normalizer as string | undefined) ?? null : null;
  if (normalizerName !== null && !text.analysis.normalizer(normalizerName)) throw new MapperParsingError(`normalizer [${normalizerName}] not found for field [${path}]`);
  // dense_vector's `similarity` is its vector similarity (DenseVectorOptions), not a scoring model.
  const similarityName = m.type === 'dense_vector' ? 'default' : (p.similarity as string | undefined) ?? 'default';
  const similarity = text.similarity(similarityName);
  if (!similarity) throw new MapperParsingError(`Unknown Similarity type [${similarityName}] for field [${path}]`);
  const indexed = p.index !== false;
  return {
    path,
    type: m.type,
    indexed,
    docValues: m.type !== 'text' && m.type !== 'completion' && m.type !== 'dense_vector' && !isFeatureType(m.type) && p.doc_values !== false,
    norms: isAnalyzedTextType(m.type) ? p.norms !== false : p.norms === true,
    analyzer,
    searchAnalyzer,
    searchQuoteAnalyzer,
    text: settings,
    normalizer: normalizerName,
    similarity,
    ignoreAbove: p.ignore_above !== undefined ? Number(p.ignore_above) : NO_IGNORE_ABOVE,
    nullValue: p.null_value ?? null,
    coerce: p.coerce !== false,
    format: (p.format as string | undefined) ?? DEFAULT_DATE_FORMAT,
    scalingFactor: p.scaling_factor !== undefined ? Number(p.scaling_factor) : 1,
    positionIncrementGap: p.position_increment_gap !== undefined ? Number(p.position_increment_gap) : DEFAULT_POSITION_INCREMENT_GAP,
    isMultiField,
    positiveScoreImpact: p.positive_score_impact !== false,
    completion: m.type === 'completion' ? completionOptions(p) : null,
    searchAsYouType: m.type === 'search_as_you_type' ? searchAsYouTypeRoot(path, p) : null,
    vector: m.type === 'dense_vector' ? denseVectorOptions(p) : null,
  };
}

/** Resolves `root` against an index's analysis and similarities (the built-ins when not given). */
export function resolveMapping(root: RootMapping, settings: IndexTextSettings = DEFAULT_TEXT_SETTINGS): ResolvedMapping {
  const text = resolveTextContext(settings);
  const fields = new Map<string, ResolvedField>();
  const objects = new Set<string>();
  let total = 0;
  const walk = (obj: ObjectMapper, prefix: string) => {
    for (const [name, m] of obj.properties) {
      const path = prefix ? `${prefix}.${name}` : name;
      total++;
      visit(m, path);
    }
  };
  const visit = (m: Mapper, path: string) => {
    if (m.kind === 'object') {
      objects.add(path);
      walk(m, path);
      return;
    }
    addField(resolveField(path, m, false, settings, text));
    for (const [sub, sm] of m.fields) {
      total++;
      addField(resolveField(`${path}.${sub}`, sm, true, settings, text));
    }
  };
  // A search_as_you_type field brings its hidden subfields (not counted: see search-as-you-type.ts).
  const addField = (f: ResolvedField) => {
    fields.set(f.path, f);
    if (f.searchAsYouType !== null) for (const sub of searchAsYouTypeSubfields(f)) fields.set(sub.path, sub);
  };
  walk(root, '');
  return { fields, objects, totalFields: total, text: settings };
}

/**
 * ES MappingLookup.checkObjectDepthLimit: an object at `a.b` sits at depth 3 (its dots + 2), and no
 * object may sit deeper than `index.mapping.depth.limit`.
 */
export function checkObjectDepthLimit(resolved: ResolvedMapping, limit: number): void {
  for (const path of resolved.objects) {
    let dots = 0;
    for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 0x2e) dots++;
    if (dots + 2 > limit) {
      throw new IllegalArgumentError(`Limit of mapping depth [${limit}] has been exceeded due to object field [${path}]`);
    }
  }
}

/** Counts the mappers a (partial) mapper tree adds: each field, multi-field and object is one. */
export function countMappers(m: Mapper): number {
  if (m.kind === 'field') return 1 + m.fields.size;
  let n = 1;
  for (const child of m.properties.values()) n += countMappers(child);
  return n;
}

/** The mapper at a full dotted path, if any (multi-fields included). */
export function mapperAt(root: RootMapping, path: string): Mapper | undefined {
  let cur: Mapper | undefined = root;
  const parts = path.split('.');
  for (let i = 0; i < parts.length; i++) {
    if (!cur) return undefined;
    if (cur.kind === 'object') cur = cur.properties.get(parts[i]);
    else cur = cur.fields.get(parts[i]);
  }
  return cur;
}
