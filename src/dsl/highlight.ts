/**
 * The search `highlight` member → a typed request, parsed as ES's HighlightBuilder does
 * (https://www.elastic.co/guide/en/elasticsearch/reference/8.15/highlighting.html): two ObjectParsers,
 * `highlight` and `highlight_field`, sharing AbstractHighlighterBuilder.setupParser's options. Errors
 * are ObjectParser's: `[highlight] unknown field [x]` (+ did you mean), `[highlight] x doesn't support
 * values of type: T` for a wrong token, and `[highlight] failed to parse field [x]` wrapping a value's
 * own failure; a field's errors are wrapped twice more (`[highlight] failed to parse field [fields]`,
 * `[fields] failed to parse field [name]`), as declareNamedObjects does.
 *
 * Options are kept as given (null = not given): a field's options override the top level's, which
 * override ES's defaults — merged once, per index, by search/highlight. `type` and `boundary_scanner`
 * values ES only checks when it highlights are checked there too.
 */
import { EsError, IllegalArgumentError, ParsingError, XContentParseError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { booleanValue, forEachEntry, intValue, isObject, within, type JsonObject } from './parse-helpers.js';
import { objectField, unknownField } from './object-parser.js';
import type { QueryNode } from './query-nodes.js';
import { parseQuery } from './queries/registry.js';

export type HighlightOrder = 'none' | 'score';
/** HighlightBuilder.BoundaryScannerType. */
export type BoundaryScanner = 'chars' | 'word' | 'sentence';

/** What HighlightBuilder and HighlightBuilder.Field share; null = not given at this level. */
export interface HighlightOptions {
  readonly preTags: readonly string[] | null;
  readonly postTags: readonly string[] | null;
  readonly fragmentSize: number | null;
  readonly numberOfFragments: number | null;
  readonly requireFieldMatch: boolean | null;
  readonly noMatchSize: number | null;
  readonly order: HighlightOrder | null;
  /** `unified` (the default), `plain` or `fvh`; any other name fails when a hit is highlighted. */
  readonly type: string | null;
  readonly boundaryScanner: BoundaryScanner | null;
  readonly maxAnalyzedOffset: number | null;
  /** Highlight the terms of this query instead of the search query's. */
  readonly highlightQuery: QueryNode | null;
}

export interface HighlightFieldRequest {
  /** A field name or a `*` pattern. */
  readonly name: string;
  readonly options: HighlightOptions;
}

export interface HighlightRequest {
  readonly options: HighlightOptions;
  /** Top level only: HighlightBuilder.build does not transfer a field's `encoder`. */
  readonly encoder: 'default' | 'html';
  readonly fields: readonly HighlightFieldRequest[];
}

/** HighlightBuilder's tag schemas. */
const STYLED_PRE_TAGS = Array.from({ length: 10 }, (_, i) => `<em class="hlt${i + 1}">`);
const TAG_SCHEMAS: Record<string, { pre: string[]; post: string[] }> = {
  default: { pre: ['<em>'], post: ['</em>'] },
  styled: { pre: STYLED_PRE_TAGS, post: ['</em>'] },
};

/** ObjectParser.ValueType token sets. */
type ValueType = 'int' | 'boolean' | 'string' | 'string_array' | 'object';
const TOKENS: Record<ValueType, readonly string[]> = {
  int: ['VALUE_NUMBER', 'VALUE_STRING'],
  boolean: ['VALUE_BOOLEAN', 'VALUE_STRING'],
  string: ['VALUE_STRING'],
  string_array: ['START_ARRAY', 'VALUE_STRING'],
  object: ['START_OBJECT'],
};

type MutableOptions = { -readonly [K in keyof HighlightOptions]: HighlightOptions[K] };

interface Member {
  readonly type: ValueType;
  /** Sets the option; errors thrown here are the value's own (wrapped as "failed to parse field"). */
  readonly set: (o: MutableOptions, v: unknown) => void;
}

const ignored: Member['set'] = () => {};

/** AbstractHighlighterBuilder.setupParser: the members both levels accept. */
const COMMON: Record<string, Member> = {
  pre_tags: { type: 'string_array', set: (o, v) => (o.preTags = stringArray(v)) },
  post_tags: { type: 'string_array', set: (o, v) => (o.postTags = stringArray(v)) },
  order: { type: 'string', set: (o, v) => (o.order = String(v).toLowerCase() === 'score' ? 'score' : 'none') },
  highlight_filter: { type: 'boolean', set: (_o, v) => booleanValue(v) },
  fragment_size: { type: 'int', set: (o, v) => (o.fragmentSize = intValue(v)) },
  number_of_fragments: { type: 'int', set: (o, v) => (o.numberOfFragments = intValue(v)) },
  encoder: { type: 'string', set: ignored },
  tags_schema: { type: 'string', set: (o, v) => tagsSchema(o, String(v)) },
  require_field_match: { type: 'boolean', set: (o, v) => (o.requireFieldMatch = booleanValue(v)) },
  boundary_scanner: { type: 'string', set: (o, v) => (o.boundaryScanner = boundaryScanner(String(v))) },
  boundary_max_scan: { type: 'int', set: (_o, v) => intValue(v) },
  boundary_chars: { type: 'string', set: ignored },
  boundary_scanner_locale: { type: 'string', set: ignored },
  type: { type: 'string', set: (o, v) => (o.type = String(v)) },
  fragmenter: { type: 'string', set: ignored },
  no_match_size: { type: 'int', set: (o, v) => (o.noMatchSize = intValue(v)) },
  phrase_limit: { type: 'int', set: (_o, v) => intValue(v) },
  max_analyzed_offset: { type: 'int', set: (o, v) => (o.maxAnalyzedOffset = maxAnalyzedOffset(intValue(v))) },
  options: { type: 'object', set: ignored },
  highlight_query: { type: 'object', set: (o, v) => (o.highlightQuery = parseQuery(v)) },
};

/** HighlightBuilder.Field's own members (fvh options, accepted as ES does). */
const FIELD_ONLY: Record<string, Member> = {
  fragment_offset: { type: 'int', set: (_o, v) => intValue(v) },
  matched_fields: { type: 'string_array', set: (_o, v) => stringArray(v) },
};
const FIELD_MEMBERS: Record<string, Member> = { ...COMMON, ...FIELD_ONLY };
const FIELD_MEMBER_NAMES = Object.keys(FIELD_MEMBERS);
const TOP_MEMBER_NAMES = [...Object.keys(COMMON), 'fields'];

function emptyOptions(): MutableOptions {
  return {
    preTags: null, postTags: null, fragmentSize: null, numberOfFragments: null, requireFieldMatch: null, noMatchSize: null,
    order: null, type: null, boundaryScanner: null, maxAnalyzedOffset: null, highlightQuery: null,
  };
}

/** `highlight: {...}` (the token was checked by the search body parser). */
export function parseHighlight(v: unknown): HighlightRequest {
  const body = v as JsonObject;
  const options = emptyOptions();
  let encoder: HighlightRequest['encoder'] = 'default';
  let fields: HighlightFieldRequest[] = [];
  forEachEntry(body, (k, value) => {
    if (k === 'fields') {
      if (!isObject(value) && !Array.isArray(value)) throw unsupportedToken('highlight', k, value);
      fields = objectField('highlight', k, () => parseFields(value));
      return;
    }
    const member = ownMember(COMMON, k);
    if (!member) throw unknownField('highlight', k, TOP_MEMBER_NAMES);
    parseMember('highlight', k, member, options, value);
    if (k === 'encoder') encoder = value === 'html' ? 'html' : 'default';
  });
  checkTags(options);
  return { options, encoder, fields };
}

/** `fields`: an object of name → options, or an array of single-name objects (declareNamedObjects). */
function parseFields(v: JsonObject | unknown[]): HighlightFieldRequest[] {
  if (!Array.isArray(v)) {
    const out: HighlightFieldRequest[] = [];
    forEachEntry(v, (name, options) => out.push({ name, options: objectField('fields', name, () => parseFieldOptions(options)) }));
    return out;
  }
  return v.map((entry, i) => within(i, () => {
    const keys = isObject(entry) ? Object.keys(entry) : [];
    if (keys.length !== 1) {
      throw new XContentParseError('[fields] can be a single object with any number of fields or an array where each entry is an object with a single field');
    }
    const name = keys[0];
    return within(name, () => ({ name, options: objectField('fields', name, () => parseFieldOptions((entry as JsonObject)[name])) }));
  }));
}

function parseFieldOptions(v: unknown): HighlightOptions {
  if (!isObject(v)) throw new XContentParseError(`[highlight_field] Expected START_OBJECT but was: ${tokenName(v)}`);
  const options = emptyOptions();
  forEachEntry(v, (k, value) => {
    const member = ownMember(FIELD_MEMBERS, k);
    if (!member) throw unknownField('highlight_field', k, FIELD_MEMBER_NAMES);
    parseMember('highlight_field', k, member, options, value);
  });
  checkTags(options);
  return options;
}

function ownMember(members: Record<string, Member>, k: string): Member | undefined {
  return Object.prototype.hasOwnProperty.call(members, k) ? members[k] : undefined;
}

/** ObjectParser: the token first (FieldParser.assertSupports), then the value, failures wrapped. */
function parseMember(owner: string, k: string, member: Member, options: MutableOptions, value: unknown): void {
  if (!TOKENS[member.type].includes(tokenName(value))) throw unsupportedToken(owner, k, value);
  objectField(owner, k, () => member.set(options, value));
}

function unsupportedToken(owner: string, k: string, value: unknown): XContentParseError {
  return new XContentParseError(`[${owner}] ${k} doesn't support values of type: ${tokenName(value)}`);
}

/** declareStringArray: one string, or an array of values read as text. */
function stringArray(v: unknown): string[] {
  const items = Array.isArray(v) ? v : [v];
  return items.map((x, i) => within(i, () => {
    if (typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') return String(x);
    // XContentParser.text() on a structure (ES adds the token's position to this message).
    throw new EsError('illegal_state_exception', `Can't get text on a ${tokenName(x)}`, 400);
  }));
}

function tagsSchema(o: MutableOptions, name: string): void {
  const schema = Object.prototype.hasOwnProperty.call(TAG_SCHEMAS, name) ? TAG_SCHEMAS[name] : undefined;
  if (!schema) throw new IllegalArgumentError(`Unknown tag schema [${name}]`);
  o.preTags = schema.pre;
  o.postTags = schema.post;
}

/** BoundaryScannerType.fromString: Java's Enum.valueOf on the upper-cased name. */
function boundaryScanner(name: string): BoundaryScanner {
  const lower = name.toLowerCase();
  if (lower === 'chars' || lower === 'word' || lower === 'sentence') return lower;
  throw new IllegalArgumentError(`No enum constant org.elasticsearch.search.fetch.subphase.highlight.HighlightBuilder.BoundaryScannerType.${name.toUpperCase()}`);
}

function maxAnalyzedOffset(n: number): number {
  if (n <= 0) throw new IllegalArgumentError('[max_analyzed_offset] must be a positive integer');
  return n;
}

/** setupParser's checks once an object is parsed. */
function checkTags(o: HighlightOptions): void {
  if (o.preTags !== null && o.postTags === null) throw new ParsingError('pre_tags are set but post_tags are not set');
  if (o.preTags !== null && o.postTags !== null && (o.preTags.length === 0 || o.postTags.length === 0)) {
    throw new ParsingError('pre_tags or post_tags must not be empty');
  }
}
