/**
 * The building blocks of a date format, after java.time's DateTimeFormatterBuilder printer-parsers
 * (NumberPrinterParser, ReducedPrinterParser, FractionPrinterParser, TextPrinterParser,
 * OffsetIdPrinterParser, ZoneIdPrinterParser, optional sections), which is what ES's
 * DateFormatters.java composes its built-in formats from and what custom patterns compile to.
 * A format is a list of elements; parser.ts parses and printer.ts prints them.
 */

/** Slots of parsed or printed fields (ChronoField names). NaN in a slot means "not parsed". */
export const F = {
  YEAR: 0, // proleptic year: 0 is 1 BC ('u')
  YEAR_OF_ERA: 1, // 'y'
  ERA: 2, // 0 = BC, 1 = AD
  MONTH: 3,
  DAY: 4,
  DAY_OF_YEAR: 5,
  WEEK_YEAR: 6, // ISO week-based year (ES makes the root locale's weeks ISO)
  WEEK: 7, // ISO week of the week-based year
  DAY_OF_WEEK: 8, // 1 = Monday
  HOUR: 9, // 0-23
  CLOCK_HOUR_OF_AMPM: 10, // 'h', 1-12
  HOUR_OF_AMPM: 11, // 'K', 0-11
  CLOCK_HOUR_OF_DAY: 12, // 'k', 1-24
  AMPM: 13, // 0 = AM
  MINUTE: 14,
  SECOND: 15,
  NANO: 16,
  OFFSET_SECONDS: 17,
} as const;
export const FIELD_COUNT = 18;

/** java.time SignStyle, as strict parsing treats it. */
export type SignStyle =
  | 'normal' // '-' accepted, '+' rejected
  | 'exceedsPad' // '+' required exactly when more than `min` digits; '-' accepted
  | 'notNegative'; // no sign at all

export interface ValueElement {
  readonly kind: 'value';
  readonly field: number;
  readonly min: number;
  readonly max: number;
  readonly sign: SignStyle;
  /** Digits reserved for the fixed-width values that follow without a separator ("yyyyMMdd"). */
  readonly subsequentWidth: number;
}
/** Two-digit year: 00-99 read as 2000-2099 ('yy'). */
export interface ReducedYearElement {
  readonly kind: 'reducedYear';
  readonly field: number;
}
/** Fraction of second, kept as nanos; `decimalPoint` means a leading '.' that is part of the element. */
export interface FractionElement {
  readonly kind: 'fraction';
  readonly min: number;
  readonly max: number;
  readonly decimalPoint: boolean;
}
export interface LiteralElement {
  readonly kind: 'literal';
  readonly text: string;
}
/** A field spelled as a word: `names[i]` is value `first + i`. */
export interface TextElement {
  readonly kind: 'text';
  readonly field: number;
  readonly names: readonly string[];
  readonly first: number;
}
/** An offset like "+01:00" (DateTimeFormatterBuilder.appendOffset), `noOffsetText` standing for zero. */
export interface OffsetElement {
  readonly kind: 'offset';
  readonly colon: boolean;
  readonly minutes: Presence;
  readonly seconds: Presence;
  readonly noOffsetText: string;
}
export type Presence = 'none' | 'optional' | 'mandatory';
/** appendZoneOrOffsetId / appendZoneId: "Z", "+01:00", "UTC", "GMT+1", "Europe/Paris". */
export interface ZoneIdElement {
  readonly kind: 'zoneId';
}
/** `[...]`: parsed if it can be, otherwise skipped with everything it parsed undone. */
export interface OptionalElement {
  readonly kind: 'optional';
  readonly elements: readonly Element[];
}

export type Element =
  | ValueElement
  | ReducedYearElement
  | FractionElement
  | LiteralElement
  | TextElement
  | OffsetElement
  | ZoneIdElement
  | OptionalElement;

// Every element is built on the same full set of properties, so all elements share one object shape
// and the parse loop's property reads stay monomorphic (measurably faster for custom patterns).
const BLANK = {
  kind: 'literal', field: 0, min: 0, max: 0, sign: 'notNegative', subsequentWidth: 0, decimalPoint: false, text: '',
  names: [] as readonly string[], first: 0, colon: false, minutes: 'none', seconds: 'none', noOffsetText: '',
  elements: [] as readonly Element[],
};
function make<T extends Element>(element: T): T {
  return { ...BLANK, ...element };
}

export function value(field: number, min: number, max = min, sign: SignStyle = 'notNegative'): ValueElement {
  return make({ kind: 'value', field, min, max, sign, subsequentWidth: 0 });
}
export function reducedYear(field: number): ReducedYearElement {
  return make({ kind: 'reducedYear', field });
}
export function fraction(min: number, max: number, decimalPoint = true): FractionElement {
  return make({ kind: 'fraction', min, max, decimalPoint });
}
export function literal(text: string): LiteralElement {
  return make({ kind: 'literal', text });
}
export function text(field: number, names: readonly string[], first: number): TextElement {
  return make({ kind: 'text', field, names, first });
}
export function optional(...elements: Element[]): OptionalElement {
  return make({ kind: 'optional', elements });
}
export const ZONE_ID: ZoneIdElement = make({ kind: 'zoneId' });

/**
 * appendOffset(pattern, noOffsetText) with java.time's pattern names: "+HH", "+HHmm", "+HH:mm",
 * "+HHMM", "+HH:MM", "+HHMMss", "+HH:MM:ss", "+HHMMSS", "+HH:MM:SS": upper case is mandatory,
 * lower case optional (printed only when non-zero).
 */
export function offset(pattern: string, noOffsetText: string): OffsetElement {
  const presence = (upper: string, lower: string): Presence =>
    pattern.includes(upper) ? 'mandatory' : pattern.includes(lower) ? 'optional' : 'none';
  return make({ kind: 'offset', colon: pattern.includes(':'), minutes: presence('MM', 'mm'), seconds: presence('SS', 'ss'), noOffsetText });
}

export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const MONTHS_SHORT = MONTHS.map((m) => m.slice(0, 3));
export const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
export const DAYS_SHORT = DAYS.map((d) => d.slice(0, 3));

/**
 * Java's "adjacent value parsing": a number followed, with no separator, by fixed-width numbers
 * leaves them their digits ("yyyyMMdd" reads "20240315" as 2024-03-15), as
 * DateTimeFormatterBuilder.appendValue does. Returns copies; section boundaries and any
 * non-numeric element end a run, as they do in java.time.
 */
export function linkAdjacentValues(elements: readonly Element[]): Element[] {
  const linked: Element[] = [];
  let active = -1; // index in `linked` of the value that owns the current run
  for (const element of elements) {
    const width = fixedWidth(element);
    if (element.kind === 'optional') {
      linked.push(optional(...linkAdjacentValues(element.elements)));
      active = -1;
    } else if (active >= 0 && width > 0) {
      const owner = linked[active] as ValueElement;
      linked[active] = { ...owner, subsequentWidth: owner.subsequentWidth + width };
      linked.push(element);
    } else {
      linked.push(element);
      // A two-digit year or fixed fraction never needs to reserve digits: the next fixed value owns the run.
      active = element.kind === 'value' ? linked.length - 1 : -1;
    }
  }
  return linked;
}

/** Width of an element that always reads the same number of digits, 0 otherwise. */
function fixedWidth(element: Element): number {
  switch (element.kind) {
    case 'value':
      return element.min === element.max && element.sign === 'notNegative' ? element.min : 0;
    case 'reducedYear':
      return 2;
    case 'fraction':
      return element.min === element.max && !element.decimalPoint ? element.min : 0;
    default:
      return 0;
  }
}
