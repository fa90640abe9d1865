/**
 * ES's `format` mapping parameter: "strict_date_optional_time||epoch_millis",
 * "yyyy/MM/dd HH:mm:ss||yyyy/MM/dd". Alternatives separated by "||" are tried in order when
 * parsing (DateFormatter.forPattern / JavaDateFormatter); the first one renders values.
 */
import type { Element } from './elements.js';
import { linkAdjacentValues } from './elements.js';
import { formatEpoch, parseEpoch } from './epoch.js';
import { DateFormatError, DateParseError, dateTextPreview } from './errors.js';
import { parseIsoFast } from './iso-fast-path.js';
import { NAMED_FORMATS } from './named-formats.js';
import { ParseState, parseElements } from './parser.js';
import { compilePattern } from './pattern.js';
import { printElements } from './printer.js';
import { resolveFields } from './resolver.js';
import type { TimeZone } from './time-zone.js';
import { UTC, parseTimeZone } from './time-zone.js';

/** One alternative of a format: a built-in name or a custom pattern. */
export interface DateFormat {
  readonly pattern: string;
  /**
   * Epoch ms, or undefined when `text` is not in this format. Text without a zone is read in
   * `timeZone` (an ES `time_zone`: "+01:00", "UTC", "Europe/Paris"; default UTC). `roundUp` fills
   * missing fields with ES's round-up defaults (range `lte`/`gt`): month and day 1, 23:59:59.999.
   */
  parse(text: string, timeZone?: string, roundUp?: boolean): number | undefined;
  /** Renders `epochMillis` as seen in `timeZone` (default UTC). */
  format(epochMillis: number, timeZone?: string): string;
}

export interface CompiledDateFormat {
  readonly spec: string;
  readonly alternatives: readonly DateFormat[];
  /**
   * Tries each alternative in order; epoch ms, or a DateParseError with ES's message:
   * `failed to parse date field [<text>] with format [<spec>]`. `timeZone` and `roundUp` as in
   * DateFormat.parse; a zone in the text wins over `timeZone`.
   */
  parse(text: string, timeZone?: string, roundUp?: boolean): number;
  /** Renders with the first alternative, in UTC unless `timeZone` is given (ES's `*_as_string`). */
  format(epochMillis: number, timeZone?: string): string;
}

export const DEFAULT_DATE_FORMAT = 'strict_date_optional_time||epoch_millis';

const compiled = new Map<string, CompiledDateFormat>();

/**
 * Compiles a `format` parameter (cached). Throws DateFormatError with ES's message on an invalid
 * one: `Invalid format: [yyyy-jj]: Unknown pattern letter: j`.
 */
export function parseDateFormat(spec: string): CompiledDateFormat {
  let format = compiled.get(spec);
  if (format === undefined) {
    format = compile(spec);
    if (compiled.size >= 256) compiled.clear();
    compiled.set(spec, format);
  }
  return format;
}

function compile(spec: string): CompiledDateFormat {
  if (spec.trim().length === 0) throw new DateFormatError('No date pattern provided');
  // A leading "8" meant "java.time syntax" in 6.x/7.x (DateFormatter.strip8Prefix).
  const body = spec.startsWith('8') ? spec.slice(1) : spec;
  const alternatives = body.split('||').map((pattern) => {
    if (pattern.length === 0) throw new DateFormatError(`Cannot have empty element in multi date format pattern: ${spec}`);
    return alternative(pattern.trim());
  });
  return new Compiled(spec, alternatives);
}

function alternative(pattern: string): BaseFormat {
  if (pattern === 'epoch_millis' || pattern === 'epoch_second') return new EpochFormat(pattern);
  const named = NAMED_FORMATS.get(pattern);
  if (named !== undefined) {
    // The default format gets the hand-written fast path (ES does the same with Iso8601Parser).
    const fastPath = pattern === 'strict_date_optional_time' || pattern === 'iso8601' ? parseIsoFast : undefined;
    return new JavaFormat(pattern, named.printer, named.parsers, fastPath);
  }
  let elements: Element[];
  try {
    elements = compilePattern(pattern);
  } catch (e) {
    throw new DateFormatError(`Invalid format: [${pattern}]: ${(e as Error).message}`);
  }
  return new JavaFormat(pattern, elements, [elements]);
}

function zoneOf(timeZone: string | undefined): TimeZone {
  return timeZone === undefined ? UTC : parseTimeZone(timeZone);
}

abstract class BaseFormat implements DateFormat {
  constructor(readonly pattern: string) {}

  /** Epoch ms, NaN when `text` is not in this format. */
  abstract parseIn(text: string, zone: TimeZone, roundUp: boolean): number;
  abstract formatIn(epochMillis: number, zone: TimeZone): string;

  parse(text: string, timeZone?: string, roundUp = false): number | undefined {
    const millis = this.parseIn(text, zoneOf(timeZone), roundUp);
    return millis === millis ? millis : undefined;
  }

  format(epochMillis: number, timeZone?: string): string {
    return this.formatIn(epochMillis, zoneOf(timeZone));
  }
}

type FastPath = (text: string, zone: TimeZone, roundUp: boolean) => number;

const state = new ParseState();

/** A format made of elements (JavaDateFormatter): a printer and parsers tried in order. */
class JavaFormat extends BaseFormat {
  private readonly parsers: readonly Element[][];

  constructor(
    pattern: string,
    private readonly printer: readonly Element[],
    parsers: readonly (readonly Element[])[],
    private readonly fastPath?: FastPath,
  ) {
    super(pattern);
    this.parsers = parsers.map(linkAdjacentValues);
  }

  parseIn(text: string, zone: TimeZone, roundUp: boolean): number {
    if (this.fastPath !== undefined) {
      const millis = this.fastPath(text, zone, roundUp);
      if (millis === millis) return millis;
    }
    for (let i = 0; i < this.parsers.length; i++) {
      state.reset();
      if (parseElements(this.parsers[i], text, 0, state) === text.length) {
        const millis = resolveFields(state, zone, roundUp);
        if (millis === millis) return millis;
      }
    }
    return NaN;
  }

  formatIn(epochMillis: number, zone: TimeZone): string {
    return printElements(this.printer, epochMillis, zone);
  }
}

class EpochFormat extends BaseFormat {
  private readonly seconds = this.pattern === 'epoch_second';

  parseIn(text: string): number {
    return parseEpoch(text, this.seconds);
  }

  formatIn(epochMillis: number): string {
    return formatEpoch(epochMillis, this.seconds);
  }
}

class Compiled implements CompiledDateFormat {
  constructor(
    readonly spec: string,
    readonly alternatives: readonly BaseFormat[],
  ) {}

  parse(text: string, timeZone?: string, roundUp = false): number {
    if (text.length === 0) throw new DateParseError('cannot parse empty datetime');
    const zone = zoneOf(timeZone);
    for (let i = 0; i < this.alternatives.length; i++) {
      const millis = this.alternatives[i].parseIn(text, zone, roundUp);
      if (millis === millis) return millis;
    }
    throw new DateParseError(`failed to parse date field [${dateTextPreview(text)}] with format [${this.spec}]`);
  }

  format(epochMillis: number, timeZone?: string): string {
    return this.alternatives[0].formatIn(epochMillis, zoneOf(timeZone));
  }
}
