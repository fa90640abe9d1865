/**
 * `script_fields` in the fetch phase (ES ScriptFieldsPhase): each script run for a returned hit, its
 * value shown as one entry of the hit's `fields` (`[null]` for null, a list's items as its values),
 * rendered as ES's XContent writes Java values: doubles as Double.toString ("2.0", NaN as "NaN"),
 * dates in strict_date_optional_time. `ignore_failure` drops a field whose script fails.
 */
import { javaDouble } from '../../common/java-double.js';
import { javaFloatToString } from '../../common/float-json.js';
import { EsError, IllegalArgumentError } from '../../errors/index.js';
import type { CompiledScript, ValueType } from '../../dsl/index.js';
import type { Segment } from '../../index/index.js';
import { scriptProgram, type SegmentScript } from './script-program.js';

/** ES's `index.max_script_fields` default. */
export const MAX_SCRIPT_FIELDS = 32;

export interface FetchScriptField {
  readonly name: string;
  readonly script: CompiledScript;
  readonly ignoreFailure: boolean;
}

function renderValue(v: unknown, t: ValueType): string {
  if (v === null || v === undefined) return 'null';
  switch (t) {
    case 'double': return Number.isFinite(v) ? javaDouble(v as number) : JSON.stringify(javaDouble(v as number));
    case 'float': return Number.isFinite(v) ? javaFloatToString(v as number) : JSON.stringify(javaFloatToString(v as number));
    case 'date': case 'instant': return JSON.stringify(new Date(v as number).toISOString());
    default: return JSON.stringify(v);
  }
}

/**
 * Longest rendering of one script field of one hit. A script may return a param as it is, and a
 * page repeats it per hit: a 9 MB param over 1,000 hits would be a 9 GB response.
 */
const MAX_RENDERED_CHARS = 1 << 20;

/** Each field's script bound to the segment of the hits last fetched (hits come grouped by segment). */
const bound = new WeakMap<FetchScriptField, { readonly segment: Segment; readonly script: SegmentScript }>();

function boundScript(f: FetchScriptField, segment: Segment): SegmentScript {
  const last = bound.get(f);
  if (last !== undefined && last.segment === segment) return last.script;
  const script = scriptProgram(f.script).bind(segment);
  bound.set(f, { segment, script });
  return script;
}

/** The rendered values of one script field for `doc`, or null when it failed and failures are ignored. */
export function scriptFieldValues(f: FetchScriptField, segment: Segment, doc: number): string[] | null {
  let value: unknown;
  try {
    value = boundScript(f, segment)(doc, 0);
  } catch (e) {
    if (f.ignoreFailure && e instanceof EsError) return null;
    throw e;
  }
  const t = f.script.expr.t;
  const values = t === 'list' && Array.isArray(value) ? value.map((x) => JSON.stringify(x)) : [renderValue(value, t)];
  let chars = 0;
  for (const v of values) chars += v.length;
  if (chars > MAX_RENDERED_CHARS) {
    throw new IllegalArgumentError(`script field [${f.name.slice(0, 100)}] renders [${chars}] chars for one hit, more than [${MAX_RENDERED_CHARS}]`);
  }
  return values;
}
