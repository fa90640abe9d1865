/**
 * A pipeline definition (ES Pipeline.Factory): `description`, `processors` (required),
 * `on_failure`, `version`, `_meta`, `deprecated`; anything else is refused. The definition is kept
 * as given, because GET returns exactly what was PUT.
 */
import { IngestConfigurationError } from '../errors/index.js';
import { isPlainObject } from '../common/json.js';
import { ProcessorConfig } from './config.js';
import { javaType, type JsonMap } from './ingest-document.js';
import type { Processor } from './processor.js';
import { parseProcessors } from './registry.js';

export interface Pipeline {
  readonly id: string;
  readonly description: string | null;
  readonly processors: readonly Processor[];
  readonly onFailure: readonly Processor[];
  /** The definition as PUT (what GET renders). */
  readonly config: JsonMap;
}

export function parsePipeline(id: string, config: unknown): Pipeline {
  if (!isPlainObject(config)) throw new IngestConfigurationError(`pipeline [${id}] definition isn't a map, but of type [${javaType(config)}]`);
  // Pipeline-level options have no processor type: errors name only the property.
  const c = new ProcessorConfig('', null, config);
  const description = c.optionalString('description');
  const version = c.take('version');
  if (version !== null && !Number.isInteger(version)) {
    throw new IngestConfigurationError(`property cannot be converted to an int [${typeof version === 'string' ? version : JSON.stringify(version)}]`, { propertyName: 'version' });
  }
  c.optionalMap('_meta');
  c.bool('deprecated', false);
  const processors = parseProcessors(c.list('processors'));
  const onFailureConfigs = c.optionalList('on_failure');
  const onFailure = onFailureConfigs ? parseProcessors(onFailureConfigs) : [];
  const unknown = c.leftovers();
  if (unknown.length > 0) throw new IngestConfigurationError(`pipeline [${id}] doesn't support one or more provided configuration parameters [${unknown.join(', ')}]`);
  if (onFailureConfigs && onFailure.length === 0) throw new IngestConfigurationError(`pipeline [${id}] cannot have an empty on_failure option defined`);
  return { id, description, processors, onFailure, config };
}
