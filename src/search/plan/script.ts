/**
 * A script compiled for one index, as ES compiles it on each shard (SearchExecutionContext.compile):
 * `doc['field']` resolved against the index's mapping, ES's salt for randomScore, and a failure
 * reported as the shard's `query_shard_exception` "failed to create query: …" around ES's
 * script_exception or illegal_argument_exception.
 */
import { compileScript, type CompiledScript, type DocValueType, type FieldAccess, type ScriptFieldRequest, type ScriptSpec, type VectorAccess } from '../../dsl/index.js';
import { EsError, IllegalArgumentError, QueryShardError } from '../../errors/index.js';
import { MAX_SCRIPT_FIELDS, type FetchScriptField } from '../script/script-fields.js';
import { javaStringHash } from '../../common/java-hash.js';
import type { ResolvedField } from '../../index/index.js';
import type { PlanContext } from './context.js';

const LONGS = new Set(['long', 'integer', 'short', 'byte', 'unsigned_long']);
const DOUBLES = new Set(['double', 'float', 'half_float', 'scaled_float']);
const STRINGS = new Set(['keyword', 'constant_keyword']);

/** What a field's doc values read as in a script (ScriptDocValues), or the error ES raises reading them. */
/** What compiling a script reads of an index. */
export type ScriptIndex = Pick<PlanContext, 'mapping' | 'index'>;

export function docValueType(ctx: ScriptIndex, name: string): FieldAccess {
  const field = ctx.mapping.fields.get(name);
  if (!field) return { error: { type: 'illegal_argument_exception', reason: `No field found for [${name}] in mapping` } };
  return fieldValueType(ctx, field);
}

function fieldValueType(ctx: ScriptIndex, field: ResolvedField): FieldAccess {
  const vt: DocValueType | null = LONGS.has(field.type) ? 'long' : DOUBLES.has(field.type) ? 'double' : field.type === 'boolean' ? 'boolean'
    : STRINGS.has(field.type) ? 'String' : field.type === 'date' ? 'date' : null;
  if (field.type === 'text') {
    return {
      error: {
        type: 'illegal_argument_exception',
        reason: `Fielddata is disabled on [${field.path}] in [${ctx.index.name}]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${field.path}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`,
      },
    };
  }
  if (vt === null) return { error: { type: 'illegal_argument_exception', reason: `[doc] values of fields of type [${field.type}] are not supported by this server yet` } };
  if (!field.docValues) {
    return { error: { type: 'illegal_argument_exception', reason: `Can't load fielddata on [${field.path}] because fielddata is unsupported on fields of type [${field.type}]. Use doc values instead.` } };
  }
  return { vt };
}

/**
 * ES's random salt, `(index name hashCode << 10) | shard id`, with shard 0 for every shard: a
 * document's random score depends on the document, never on the shard it landed in.
 */
export function randomSalt(ctx: ScriptIndex): number {
  return javaStringHash(ctx.index.name) << 10;
}

/** `spec` compiled for the index, for a context that `returns` a double (score and number sort scripts), a String (string sort scripts) or anything (field scripts). */
export function compileForIndex(ctx: ScriptIndex, spec: ScriptSpec, returns: 'double' | 'String' | 'boolean' | 'any'): CompiledScript {
  // Score and sort scripts see `_score` and the score functions; filter and field scripts do not.
  return compileScript(spec, {
    params: spec.params, field: (name) => docValueType(ctx, name), score: returns === 'double' || returns === 'String', returns, randomSalt: randomSalt(ctx),
    vectorField: (name) => vectorAccess(ctx, name), mapped: (name) => ctx.mapping.fields.has(name),
  });
}

/** A dense_vector field for the vector functions, or ES's failure to read it as one (ScoreScript.field's cast). */
function vectorAccess(ctx: ScriptIndex, name: string): VectorAccess {
  const field = ctx.mapping.fields.get(name);
  if (!field) return { error: { type: 'illegal_argument_exception', reason: `No field found for [${name}] in mapping` } };
  if (field.vector === null) {
    return { error: { type: 'class_cast_exception', reason: `field [${name}] of type [${field.type}] is not a [dense_vector] field: the vector functions read dense_vector fields only` } };
  }
  return { dims: field.vector.dims, element: field.vector.elementType };
}

/** A score (or `filter`) script compiled for the index, its failure the shard's query_shard_exception as in a query's doToQuery. */
export function planScript(ctx: ScriptIndex, spec: ScriptSpec, returns: 'double' | 'boolean' = 'double'): CompiledScript {
  try {
    return compileForIndex(ctx, spec, returns);
  } catch (e) {
    if (e instanceof EsError) throw new QueryShardError(`failed to create query: ${e.message}`, ctx.index, e);
    throw e;
  }
}

/**
 * `script_fields` compiled for one index (ES SearchService.parseSource): at most
 * `index.max_script_fields`, each a field script (no `_score`); a compile error is the shard's
 * script_exception itself, as ES's parseSource throws it.
 */
export function planScriptFields(ctx: ScriptIndex, requests: readonly ScriptFieldRequest[]): FetchScriptField[] {
  if (requests.length > MAX_SCRIPT_FIELDS) {
    throw new IllegalArgumentError(`Trying to retrieve too many script_fields. Must be less than or equal to: [${MAX_SCRIPT_FIELDS}] but was [${requests.length}]. This limit can be set by changing the [index.max_script_fields] index level setting.`);
  }
  return requests.map((r) => ({ name: r.name, script: compileForIndex(ctx, r.script, 'any'), ignoreFailure: r.ignoreFailure }));
}
