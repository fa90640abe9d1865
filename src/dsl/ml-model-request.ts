/**
 * Request bodies of the trained model APIs (`PUT _ml/trained_models/<id>`, `_infer`), read with ES's
 * object-parser errors: unknown fields are `x_content_parse_exception` "[<parser>] unknown field [x]"
 * at the field's position, wrong types "[<parser>] failed to parse field [x]".
 */
import { IllegalArgumentError, StatusError, XContentParseError } from '../errors/index.js';
import { forEachEntry, isObject, mapItems, parseBody, readInt, readObject, readString, within, type JsonObject } from './parse-helpers.js';
import { parseJsonObject, tokenName } from './json-body.js';

/** The trained model APIs' "[<parser>] unknown field [x]" at the key (ES's ObjectParser text, no suggestions). */
export function mlUnknownField(parser: string, key: string): XContentParseError {
  return new XContentParseError(`[${parser}] unknown field [${key}]`, undefined, 'key');
}

const PUT_MODEL_FIELDS = new Set([
  'model_id', 'description', 'tags', 'metadata', 'input', 'inference_config', 'model_type', 'model_size_bytes', 'estimated_operations',
  'platform_architecture', 'prefix_strings', 'location', 'definition', 'compressed_definition', 'license_level', 'default_field_map',
]);

export interface PutModelBody {
  readonly fieldNames: readonly string[];
  /** `definition` / `compressed_definition` was sent (this server cannot load one). */
  readonly hasDefinition: boolean;
  /** `location.local.path`: a user model folder (threadsearch's location type beside ES's `index`). */
  readonly localPath: string | null;
}

/** `PUT _ml/trained_models/<id>` (ES TrainedModelConfig.STRICT_PARSER, the fields this server reads). */
export function parsePutModel(body: string | null, modelId: string): PutModelBody {
  if (body === null) throw new IllegalArgumentError('request body is required');
  const json = parseJsonObject(body);
  let fieldNames: string[] | null = null;
  let hasDefinition = false;
  let localPath: string | null = null;
  parseBody(() => forEachEntry(json, (key, value) => {
    if (!PUT_MODEL_FIELDS.has(key)) throw mlUnknownField('trained_model_config', key);
    switch (key) {
      case 'location':
        localPath = parseLocation(readObjectField('trained_model_config', key, value));
        break;
      case 'model_id': {
        const id = readString('trained_model_config', key, value);
        if (id !== modelId) throw new StatusError(`Inconsistent model_id; '${id}' specified in the body differs from '${modelId}' specified as a URL argument`, 400);
        break;
      }
      case 'input':
        fieldNames = parseInput(readObjectField('trained_model_config', key, value));
        break;
      case 'definition':
      case 'compressed_definition':
        hasDefinition = true;
        break;
      case 'description':
      case 'model_type':
      case 'platform_architecture':
      case 'license_level':
        readString('trained_model_config', key, value);
        if (key === 'model_type' && value !== 'pytorch') {
          throw new StatusError(`[model_type] [${String(value)}] is not supported: built-in models are of type [pytorch]`, 400);
        }
        break;
      case 'tags':
        mapItems(value, (t) => readString('trained_model_config', key, t));
        break;
      case 'model_size_bytes':
      case 'estimated_operations':
        readInt('trained_model_config', key, value);
        break;
      case 'inference_config':
        parseInferenceConfig(readObjectField('trained_model_config', key, value));
        break;
      default:
        readObjectField('trained_model_config', key, value);
    }
  }));
  if (fieldNames === null && !hasDefinition) throw new IllegalArgumentError('[input] must not be null.');
  return { fieldNames: fieldNames ?? [], hasDefinition, localPath };
}

/** `location`: ES's `{index: {name}}` (accepted, as ES stores every model there) or `{local: {path}}`. */
function parseLocation(location: JsonObject): string | null {
  let path: string | null = null;
  forEachEntry(location, (type, value) => {
    const body = readObjectField('model_location', type, value);
    if (type === 'index') return;
    if (type !== 'local') throw new XContentParseError(`[model_location] unknown location type [${type}]; expected [index] or [local]`, undefined, 'key');
    forEachEntry(body, (key, v) => {
      if (key !== 'path') throw mlUnknownField('local_model_location', key);
      path = readString('local_model_location', key, v);
    });
    if (path === null) throw new IllegalArgumentError('[location.local.path] must be set');
  });
  return path;
}

export function readObjectField(parser: string, field: string, v: unknown): JsonObject {
  if (isObject(v)) return v;
  throw new XContentParseError(`[${parser}] ${field} doesn't support values of type: ${tokenName(v)}`);
}

function parseInput(input: JsonObject): string[] {
  let names: string[] | null = null;
  forEachEntry(input, (key, value) => {
    if (key !== 'field_names') throw mlUnknownField('trained_model_config_input', key);
    names = mapItems(value, (n) => readString('trained_model_config_input', key, n));
  });
  if (names === null || (names as string[]).length === 0) throw new IllegalArgumentError('[field_names] must not be empty');
  return names;
}

/** `inference_config`: only `text_expansion` (with its optional settings) applies to the built-in model. */
export function parseInferenceConfig(config: JsonObject): { resultsField: string } {
  let resultsField = 'predicted_value';
  forEachEntry(config, (type, value) => {
    if (type !== 'text_expansion') {
      throw new StatusError(`Trained model is configured for task [text_expansion] but called with task [${type}]`, 400);
    }
    forEachEntry(readObject('inference_config', type, value), (key, v) => {
      if (key === 'results_field') resultsField = readString(type, key, v);
      else if (key === 'tokenization' || key === 'vocabulary') readObjectField(type, key, v);
      else throw mlUnknownField(type, key);
    });
  });
  return { resultsField };
}

export interface InferBody {
  readonly texts: string[];
  readonly resultsField: string;
}

/** `_infer` body: `docs` of `{<input field>: text}` and an optional `inference_config`. */
export function parseInfer(body: string | null, inputField: string): InferBody {
  if (body === null) throw new IllegalArgumentError('request body is required');
  const json = parseJsonObject(body);
  let texts: string[] | null = null;
  let resultsField = 'predicted_value';
  parseBody(() => forEachEntry(json, (key, value) => {
    if (key === 'docs') {
      if (!Array.isArray(value)) throw new XContentParseError(`[infer_trained_model_request] docs doesn't support values of type: ${tokenName(value)}`);
      texts = value.map((doc, i) => within(i, () => {
        if (!isObject(doc)) throw new XContentParseError(`[infer_trained_model_request] docs doesn't support values of type: ${tokenName(doc)}`);
        const text = doc[inputField];
        if (text === undefined) throw new StatusError(`Input field [${inputField}] does not exist in the request document`, 400);
        if (typeof text !== 'string') throw new StatusError(`Input value [${JSON.stringify(text)}] for field [${inputField}] must be a string`, 400);
        return text;
      }));
    } else if (key === 'inference_config') {
      resultsField = parseInferenceConfig(readObjectField('infer_trained_model_request', key, value)).resultsField;
    } else if (key !== 'timeout') {
      throw mlUnknownField('infer_trained_model_request', key);
    }
  }));
  if (texts === null || (texts as string[]).length === 0) throw new IllegalArgumentError('Validation Failed: 1: at least one document is required;');
  return { texts, resultsField };
}

