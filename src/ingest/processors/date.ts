/**
 * ES DateProcessor: parses `field` with the first of `formats` that accepts it (ISO8601, UNIX,
 * UNIX_MS or a java.time pattern), in `timezone` (default UTC), and writes it to `target_field`
 * (default `@timestamp`) in `output_format`.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { parseDateFormat, type CompiledDateFormat } from '../../common/dates/index.js';
import type { ProcessorConfig } from '../config.js';
import type { ProcessorBody } from '../processor.js';
import { compileTemplate } from '../template.js';
import { javaToString } from './field-access.js';

/** ES DateFormat's named formats, as the date library names them. */
const NAMED: Record<string, string> = { ISO8601: 'iso8601', UNIX: 'epoch_second', UNIX_MS: 'epoch_millis' };
const DEFAULT_OUTPUT = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX";

function compile(config: ProcessorConfig, property: string, spec: string): CompiledDateFormat {
  if (spec === 'TAI64N') throw config.error(property, 'TAI64N dates are not supported by this server');
  try {
    return parseDateFormat(NAMED[spec] ?? spec);
  } catch (e) {
    throw config.error(property, (e as Error).message);
  }
}

export function date(config: ProcessorConfig): ProcessorBody {
  const field = config.string('field');
  const targetField = config.string('target_field', '@timestamp');
  const formats = config.stringOrList('formats').map((f) => compile(config, 'formats', f));
  const timezone = compileTemplate(config.string('timezone', 'UTC'));
  const locale = config.string('locale', 'ENGLISH');
  if (!/^(ENGLISH|ROOT|en|en[-_]US)$/i.test(locale)) throw config.error('locale', `Unsupported locale [${locale}]: only English names are supported`);
  const output = compile(config, 'output_format', config.string('output_format', DEFAULT_OUTPUT));
  return {
    kind: 'document',
    execute(doc) {
      const text = javaToString(doc.getFieldValue(field));
      const zone = timezone(doc);
      let cause: unknown = null;
      for (const f of formats) {
        try {
          doc.setFieldValue(targetField, output.format(f.parse(text, zone), zone));
          return;
        } catch (e) {
          cause = e;
        }
      }
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new IllegalArgumentError(`unable to parse date [${text}]`, new IllegalArgumentError(reason));
    },
  };
}
