/**
 * ES time values ("1s", "500ms", "2m", "-1"): `TimeValue.parseTimeValue`. Returns milliseconds;
 * -1 means "disabled" where the setting allows it. Throws a plain Error with ES's wording; callers
 * wrap it in the right ES error type.
 */
const UNITS: Record<string, number> = { nanos: 1e-6, micros: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseTimeValue(value: string, settingName: string): number {
  const v = value.trim().toLowerCase();
  if (v === '-1') return -1;
  if (v === '0') return 0;
  const m = /^(-?\d+(?:\.\d+)?)\s*(nanos|micros|ms|s|m|h|d)$/.exec(v);
  if (!m) {
    throw new Error(`failed to parse setting [${settingName}] with value [${value}] as a time value: unit is missing or unrecognized`);
  }
  const n = Number(m[1]);
  if (n < 0) throw new Error(`failed to parse setting [${settingName}] with value [${value}] as a time value: negative durations are not supported`);
  return n * UNITS[m[2]];
}
