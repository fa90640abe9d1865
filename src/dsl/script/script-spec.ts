/**
 * A script as a request gives it (ES Script.parse): a bare string (inline, painless), or
 * `{source, lang, params, options}`. Stored scripts (`id`) are refused: this server keeps none. The
 * language and the source are checked when the script is compiled for an index (compile-script.ts),
 * as ES's ScriptService does on each shard.
 */
import { IllegalArgumentError, XContentParseError } from '../../errors/index.js';
import { tokenName } from '../json-body.js';
import { forEachEntry, isObject, readString } from '../parse-helpers.js';

export interface ScriptSpec {
  readonly source: string;
  readonly lang: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** Script.DEFAULT_SCRIPT_LANG. */
export const DEFAULT_SCRIPT_LANG = 'painless';

export function parseScriptSpec(v: unknown): ScriptSpec {
  if (typeof v === 'string') return { source: v, lang: DEFAULT_SCRIPT_LANG, params: {} };
  if (!isObject(v)) throw new XContentParseError(`[script] unknown token [${tokenName(v)}] after [script]`);
  let source: string | null = null;
  let lang: string | null = null;
  let params: Record<string, unknown> = {};
  let stored = false;
  forEachEntry(v, (k, x) => {
    switch (k) {
      case 'source':
        if (source !== null || stored) throw onlyOneType();
        if (isObject(x)) throw new IllegalArgumentError('[script] a template object as [source] is not supported by this server yet');
        source = readString('script', k, x);
        return;
      case 'id':
        if (source !== null || stored) throw onlyOneType();
        readString('script', k, x);
        stored = true;
        return;
      case 'lang':
        lang = readString('script', k, x);
        return;
      case 'params':
        if (!isObject(x)) throw new XContentParseError(`[script] params doesn't support values of type: ${tokenName(x)}`);
        params = x;
        return;
      case 'options':
        if (!isObject(x)) throw new XContentParseError(`[script] options doesn't support values of type: ${tokenName(x)}`);
        if (Object.keys(x).length > 0) throw new IllegalArgumentError(`illegal compiler options [{${Object.keys(x).map((o) => `${o}=${String(x[o])}`).join(', ')}}] specified`);
        return;
      default:
        throw new XContentParseError(`[script] unknown field [${k}]`, undefined, 'key');
    }
  });
  if (stored) {
    if (lang !== null) throw new IllegalArgumentError('illegally specified <lang> for a stored script');
    throw new IllegalArgumentError('stored scripts ([id]) are not supported by this server yet: give the script inline as [source]');
  }
  if (source === null) throw new IllegalArgumentError('must specify either [source] for an inline script or [id] for a stored script');
  return { source, lang: lang ?? DEFAULT_SCRIPT_LANG, params };
}

function onlyOneType(): IllegalArgumentError {
  return new IllegalArgumentError('must only use one of [source, id] when specifying a script');
}
