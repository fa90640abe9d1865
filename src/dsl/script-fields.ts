/**
 * `script_fields` (ES SearchSourceBuilder.ScriptField): `{ "<name>": { "script": {...},
 * "ignore_failure": bool } }`, each evaluated for every returned hit and shown in its `fields`.
 * As in ES, `script` is an object or a bare string (inline painless); an array is "Unknown key for a START_ARRAY".
 */
import { ParsingError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { booleanValue, forEachEntry, isObject } from './parse-helpers.js';
import { parseScriptSpec, type ScriptSpec } from './script/index.js';

export interface ScriptFieldRequest {
  readonly name: string;
  readonly script: ScriptSpec;
  readonly ignoreFailure: boolean;
}

export function parseScriptFields(v: unknown): ScriptFieldRequest[] {
  if (!isObject(v)) throw new ParsingError(`Expected [START_OBJECT] in [script_fields] but found [${tokenName(v)}]`);
  const out: ScriptFieldRequest[] = [];
  forEachEntry(v, (name, spec) => {
    if (!isObject(spec)) throw new ParsingError(`Expected [START_OBJECT] in [${name}] but found [${tokenName(spec)}]`);
    let script: ScriptSpec | null = null;
    let ignoreFailure = false;
    forEachEntry(spec, (k, x) => {
      if (k === 'script' && !Array.isArray(x) && x !== null) script = parseScriptSpec(x);
      else if (k === 'ignore_failure' && !isObject(x) && !Array.isArray(x)) ignoreFailure = booleanValue(x);
      else throw new ParsingError(`Unknown key for a ${tokenName(x)} in [${k}].`);
    });
    if (script === null) throw new ParsingError(`[script_fields] requires a [script] for [${name}]`);
    out.push({ name, script, ignoreFailure });
  });
  return out;
}
