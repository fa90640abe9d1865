/**
 * `minimum_should_match` resolution, exactly as ES `Queries.calculateMinShouldMatch`: integers,
 * negative integers, percentages (truncated toward zero), negative percentages and conditional
 * combinations like "3<90%" / "2<-25% 9<-3".
 */
import { IllegalArgumentError } from '../errors/index.js';

export function resolveMinimumShouldMatch(spec: string | number | null, optionalClauseCount: number): number {
  if (spec === null) return 0;
  const result = calculate(optionalClauseCount, String(spec));
  return optionalClauseCount < result ? optionalClauseCount : result < 0 ? 0 : result;
}

function parseIntStrict(s: string, spec: string): number {
  if (!/^[+-]?\d+$/.test(s.trim())) throw new IllegalArgumentError(`Invalid minimum_should_match value [${spec}]`);
  return parseInt(s, 10);
}

function calculate(optionalClauseCount: number, rawSpec: string): number {
  let result = optionalClauseCount;
  let spec = rawSpec.trim();
  if (spec.includes('<')) {
    spec = spec.replace(/\s*<\s*/g, '<');
    for (const s of spec.split(/\s+/)) {
      const [upper, rest] = s.split('<');
      if (rest === undefined) throw new IllegalArgumentError(`Invalid minimum_should_match value [${rawSpec}]`);
      if (optionalClauseCount <= parseIntStrict(upper, rawSpec)) return result;
      result = calculate(optionalClauseCount, rest);
    }
    return result;
  }
  if (spec.includes('%')) {
    const percent = parseIntStrict(spec.slice(0, -1), rawSpec);
    // Java: float calc = (result * percent) * (1 / 100f); then (int) truncates toward zero.
    const calc = Math.fround(Math.fround(result * percent) * Math.fround(1 / 100));
    result = calc < 0 ? result + Math.trunc(calc) : Math.trunc(calc);
  } else {
    const calc = parseIntStrict(spec, rawSpec);
    result = calc < 0 ? result + calc : calc;
  }
  return result < 0 ? 0 : result;
}
