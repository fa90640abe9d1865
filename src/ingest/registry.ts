/**
 * The processor types this server knows, by ES name, and the parsing of one processor definition
 * `{"<type>": {...options}}` with the options every processor shares (ES
 * ConfigurationUtils.readProcessor): `tag`, `description`, `ignore_failure`, `on_failure`, and
 * `if` — scripted conditions need painless, so they are refused with a clear error rather than
 * ignored (a silently ignored condition would run the processor on every document).
 */
import { EsError, IngestConfigurationError } from '../errors/index.js';
import { isPlainObject } from '../common/json.js';
import { ProcessorConfig } from './config.js';
import { javaType } from './ingest-document.js';
import type { Processor, ProcessorBody } from './processor.js';
import { append } from './processors/append.js';
import { convert } from './processors/convert.js';
import { date } from './processors/date.js';
import { drop } from './processors/drop.js';
import { fail } from './processors/fail.js';
import { inference } from './processors/inference.js';
import { join } from './processors/join.js';
import { lowercase } from './processors/lowercase.js';
import { remove } from './processors/remove.js';
import { rename } from './processors/rename.js';
import { set } from './processors/set.js';
import { split } from './processors/split.js';
import { trim } from './processors/trim.js';
import { uppercase } from './processors/uppercase.js';

type Factory = (config: ProcessorConfig) => ProcessorBody;

const FACTORIES: ReadonlyMap<string, Factory> = new Map<string, Factory>([
  ['append', append], ['convert', convert], ['date', date], ['drop', drop], ['fail', fail], ['inference', inference],
  ['join', join], ['lowercase', lowercase], ['remove', remove], ['rename', rename], ['set', set], ['split', split],
  ['trim', trim], ['uppercase', uppercase],
]);

export const PROCESSOR_TYPES: readonly string[] = [...FACTORIES.keys()];

/** A list of processor definitions (`processors` or an `on_failure`), each `{type: options}`. */
export function parseProcessors(list: readonly unknown[]): Processor[] {
  const out: Processor[] = [];
  for (const item of list) {
    if (!isPlainObject(item)) throw new IngestConfigurationError(`property isn't a map, but of type [${javaType(item)}]`);
    for (const [type, options] of Object.entries(item)) out.push(parseProcessor(type, options));
  }
  return out;
}

function parseProcessor(type: string, options: unknown): Processor {
  if (!isPlainObject(options)) {
    throw new IngestConfigurationError(`property isn't a map, but of type [${javaType(options)}]`, { processorType: type });
  }
  const common = new ProcessorConfig(type, null, options);
  const tag = common.optionalString('tag');
  const where = { processorType: type, processorTag: tag };
  if (common.has('if')) {
    throw new IngestConfigurationError('scripted conditions are not supported by this server (no painless); split the documents into separate requests or pipelines instead', { ...where, propertyName: 'if' });
  }
  const factory = FACTORIES.get(type);
  if (!factory) throw new IngestConfigurationError(`No processor type exists with name [${type}]`, where);
  const rest = new ProcessorConfig(type, tag, options);
  for (const k of ['tag', 'if']) rest.take(k);
  const description = rest.optionalString('description');
  const ignoreFailure = rest.bool('ignore_failure', false);
  const onFailureConfigs = rest.optionalList('on_failure');
  const onFailure = onFailureConfigs ? parseProcessors(onFailureConfigs) : [];
  if (onFailureConfigs && onFailure.length === 0) throw rest.error('on_failure', 'processors list cannot be empty');
  let body: ProcessorBody;
  try {
    body = factory(rest);
    const unknown = rest.leftovers();
    if (unknown.length > 0) {
      throw new IngestConfigurationError(`processor [${type}] doesn't support one or more provided configuration parameters [${unknown.join(', ')}]`, where);
    }
  } catch (e) {
    if (e instanceof IngestConfigurationError) throw e;
    if (e instanceof EsError) throw new IngestConfigurationError(e.message, where);
    throw e;
  }
  return { type, tag, description, ignoreFailure, onFailure, body };
}
