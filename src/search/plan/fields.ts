/**
 * Field names in queries → mapped fields: exact names, `*` wildcards (`title.*`, `*`), and the
 * index's default fields. Unmapped exact names resolve to nothing (queries on them match nothing,
 * as in ES).
 */
import { globMatcher } from '../../common/wildcard.js';
import { isAnalyzedTextType, type ResolvedField } from '../../index/index.js';
import type { BoostedField } from '../../dsl/index.js';
import type { PlanContext } from './context.js';

export interface TargetField {
  readonly field: ResolvedField;
  readonly boost: number;
}

/**
 * Resolves field specs (possibly wildcards) to mapped fields. A field matched by several specs gets
 * the product of their boosts, as ES's `QueryParserHelper.resolveMappingFields` does.
 */
export function resolveFields(ctx: PlanContext, specs: readonly BoostedField[]): { fields: TargetField[]; usedWildcard: boolean } {
  const boosts = new Map<string, number>();
  let usedWildcard = false;
  const add = (path: string, boost: number) => boosts.set(path, (boosts.get(path) ?? 1) * boost);
  for (const spec of specs) {
    if (spec.field.includes('*')) {
      usedWildcard = true;
      const re = globMatcher(spec.field);
      for (const path of ctx.mapping.fields.keys()) if (re.test(path)) add(path, spec.boost);
    } else if (ctx.mapping.fields.has(spec.field)) {
      add(spec.field, spec.boost);
    }
  }
  const fields = [...boosts].map(([path, boost]) => ({ field: ctx.mapping.fields.get(path)!, boost }));
  return { fields, usedWildcard };
}

/** `index.query.default_field` as boosted specs. */
export function defaultFieldSpecs(ctx: PlanContext): BoostedField[] {
  return ctx.defaultFields.map((f) => {
    const i = f.lastIndexOf('^');
    return i < 0 ? { field: f, boost: 1 } : { field: f.slice(0, i), boost: Number(f.slice(i + 1)) || 1 };
  });
}

/** Fields whose values are terms: analyzed text (text, search_as_you_type) and keyword. */
export function isTextLike(field: ResolvedField): boolean {
  return isAnalyzedTextType(field.type) || field.type === 'keyword';
}

export function isNumericLike(field: ResolvedField): boolean {
  return !isTextLike(field);
}
