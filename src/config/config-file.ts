/**
 * threadsearch.yml: the server's settings as YAML (the `yaml` package), in ES's style — dotted keys
 * (`http.port: 9201`), nested maps (`http: {port: 9201}`) or both. Values arrive as the text the
 * flag would take: numbers and booleans as written, lists joined with commas (`http.cors.allow-origin`),
 * lists of maps as JSON for the settings that read JSON (`ml.nodes`). An unknown key, a key given twice or a value of the wrong
 * shape is a ConfigError naming the key and the file.
 */
import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { ConfigError } from './config-error.js';
import { SETTINGS_BY_KEY } from './settings-registry.js';

/** The file's settings: key → the value's text. */
export function readConfigFile(file: string): Map<string, string> {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read the config file [${file}]: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return parseConfigText(source, file);
}

export function parseConfigText(source: string, file: string): Map<string, string> {
  const doc = parseDocument(source, { uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) {
    // The parser's message names the line and column; its code frame echoes the file, so cut it.
    throw new ConfigError(`the config file [${file}] is not valid YAML: ${doc.errors[0].message.split('\n')[0]}`);
  }
  const root: unknown = doc.toJS();
  const out = new Map<string, string>();
  if (root === null || root === undefined) return out;
  if (!isMap(root)) throw new ConfigError(`the config file [${file}] must be a map of settings (key: value), got a ${Array.isArray(root) ? 'list' : typeof root}`);
  collect(root, '', file, out);
  return out;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function collect(map: Record<string, unknown>, prefix: string, file: string, out: Map<string, string>): void {
  for (const [k, v] of Object.entries(map)) {
    const key = prefix === '' ? k : `${prefix}.${k}`;
    if (!SETTINGS_BY_KEY.has(key)) {
      // A map under a key that is a prefix of known settings (`http:` → `http.port`) is walked.
      if (isMap(v) && [...SETTINGS_BY_KEY.keys()].some((known) => known.startsWith(`${key}.`))) {
        collect(v, key, file, out);
        continue;
      }
      throw new ConfigError(`unknown setting [${key.slice(0, 100)}] in the config file [${file}]; the settings are: ${[...SETTINGS_BY_KEY.keys()].join(', ')}`);
    }
    if (out.has(key)) throw new ConfigError(`setting [${key}] is given twice in the config file [${file}]`);
    out.set(key, valueText(key, v, file));
  }
}

function valueText(key: string, v: unknown, file: string): string {
  if (v === null) return '';
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (SETTINGS_BY_KEY.get(key)!.json === true) return JSON.stringify(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) return v.join(',');
  throw new ConfigError(`setting [${key}] in the config file [${file}] must be a single value or a list of values, got a ${Array.isArray(v) ? 'list of maps' : 'map'}`);
}
