/**
 * `expand_wildcards` (ES IndicesOptions.WildcardStates.parseParameter): which index states a
 * wildcard expands to. One parser for the URL parameter (a comma list), `_msearch` header lines and
 * request bodies (a string or a list), so every endpoint takes and refuses the same values.
 */
import { IllegalArgumentError, previewInput } from '../errors/index.js';

export interface WildcardStates {
  readonly open: boolean;
  readonly closed: boolean;
  readonly hidden: boolean;
}

/**
 * `values` over `defaults`: open, closed, hidden, all and none (which clears what came before it);
 * anything else is ES's 400. Absent keeps the defaults; given, even empty, the list replaces them
 * (WildcardOptions.parseParameters starts from none).
 */
export function parseWildcardStates(values: readonly string[] | undefined, defaults: WildcardStates): WildcardStates {
  if (values === undefined) return defaults;
  let open = false;
  let closed = false;
  let hidden = false;
  for (const state of values.map((s) => s.trim()).filter((s) => s !== '')) {
    switch (state) {
      case 'open': open = true; break;
      case 'closed': closed = true; break;
      case 'hidden': hidden = true; break;
      case 'all': open = closed = hidden = true; break;
      case 'none': open = closed = hidden = false; break;
      default: throw new IllegalArgumentError(`No enum constant org.elasticsearch.action.support.IndicesOptions.WildcardStates.${previewInput(state.toUpperCase())}`);
    }
  }
  return { open, closed, hidden };
}
