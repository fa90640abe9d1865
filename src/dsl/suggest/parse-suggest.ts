/**
 * A search request's `suggest` member (ES SuggestBuilder.fromXContent): `text` (the global text)
 * and named suggestions, each (SuggestionBuilder.fromXContent) with optional `text` / `prefix` /
 * `regex` and one suggester object. `completion` is implemented; `term` and `phrase` fail clearly.
 */
import { IllegalArgumentError, NamedObjectNotFoundError, ParseError, ParsingError } from '../../errors/index.js';
import { tokenName } from '../json-body.js';
import { forEachEntry, isObject, within, type JsonObject } from '../parse-helpers.js';
import { parseCompletionSuggestion } from './completion.js';
import type { SuggestNode, SuggestionNode } from './suggest-nodes.js';

/** Suggesters ES has that this server does not implement. */
const NOT_YET = new Set(['term', 'phrase']);

const isValue = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

function parseSuggestion(name: string, def: JsonObject): SuggestionNode {
  const texts = { text: null as string | null, prefix: null as string | null, regex: null as string | null };
  const found: { suggester: [string, unknown] | null } = { suggester: null };
  forEachEntry(def, (k, v) => {
    if (isValue(v)) {
      if (k === 'text' || k === 'prefix' || k === 'regex') texts[k] = String(v);
      else throw new ParsingError(`suggestion does not support [${k}]`);
    } else if (isObject(v)) {
      if (k !== 'completion') {
        if (NOT_YET.has(k)) throw new IllegalArgumentError(`[${k}] suggester is not supported by this server yet`);
        throw new NamedObjectNotFoundError(`unknown field [${k}]`);
      }
      found.suggester = [k, v];
    } else if (Array.isArray(v)) {
      throw new ParsingError(`suggestion does not support [${k}]`);
    }
    // null is not a value token for XContentParser: ES's loop passes over it.
  });
  if (found.suggester === null) throw new ParseError('missing suggestion object');
  const [type, body] = found.suggester;
  return within(type, () => parseCompletionSuggestion(name, body, texts));
}

export function parseSuggest(v: unknown): SuggestNode {
  let globalText: string | null = null;
  const suggestions: SuggestionNode[] = [];
  forEachEntry(v as JsonObject, (k, x) => {
    if (isValue(x)) {
      if (k !== 'text') throw new IllegalArgumentError(`[suggest] does not support [${k}]`);
      globalText = String(x);
    } else if (isObject(x)) {
      suggestions.push(parseSuggestion(k, x));
    } else {
      throw new ParsingError(`unexpected token [${tokenName(x)}] after [${k}]`);
    }
  });
  return { globalText, suggestions };
}
