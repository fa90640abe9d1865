/**
 * The bench scenarios as request templates over the user's index: each scenario is a list of
 * requests cycled in order (so `mixed` 4:1 sends four searches, then one bulk), each request's
 * body drawn anew from the query list or the sampled documents. Bodies are what the Search UI
 * connector, the ES clients and Kibana send for the same intent.
 */
import { CliError, EXIT } from '../cli-error.js';
import type { IndexProfile } from './index-profile.js';

export const SCENARIOS = ['match', 'multi_match', 'faceted', 'text_expansion', 'sparse_vector', 'hybrid', 'autocomplete', 'bulk', 'mixed'] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface RequestTemplate {
  /** `search` or `bulk` (a mixed run's latencies are reported together, not yet split by kind). */
  kind: 'search' | 'bulk';
  method: 'POST';
  path: string;
  contentType: string;
  body(): string;
}

export interface ScenarioOptions {
  /** The text field to query; default the mapping's first text field. */
  field?: string;
  /** The sparse encoder for text_expansion / sparse_vector / hybrid. */
  model: string;
  /** Documents per bulk request. */
  bulkSize: number;
  /** `mixed`: searches per bulk request, e.g. "4:1". */
  mix: string;
  size: number;
}

function need<T>(value: T | undefined, message: string): T {
  if (value === undefined) throw new CliError(message, EXIT.usage);
  return value;
}

/** "4:1" → [4, 1] (reads : writes). */
export function parseMix(mix: string): [number, number] {
  const m = /^(\d{1,3}):(\d{1,3})$/.exec(mix.trim());
  if (!m || Number(m[1]) + Number(m[2]) === 0) throw new CliError(`--mix must be reads:writes such as 4:1, got [${mix.slice(0, 20)}]`, EXIT.usage);
  return [Number(m[1]), Number(m[2])];
}

export function buildScenario(scenario: Scenario, profile: IndexProfile, queries: readonly string[], opts: ScenarioOptions): RequestTemplate[] {
  const index = encodeURIComponent(profile.index);
  let q = 0;
  const nextQuery = () => queries[q++ % queries.length];
  const search = (query: () => unknown): RequestTemplate => ({
    kind: 'search', method: 'POST', path: `/${index}/_search`, contentType: 'application/json', body: () => JSON.stringify(query()),
  });
  const textField = () => need(opts.field ?? profile.textFields[0], `index [${profile.index}] has no text field to query; pass --field`);
  const sparseField = () => need(profile.sparseFields[0], `scenario [${scenario}] needs a sparse_vector field in index [${profile.index}] (load through an inference pipeline first)`);
  const match = () => {
    const f = textField();
    return () => ({ size: opts.size, query: { match: { [f]: nextQuery() } } });
  };
  const expansion = () => {
    const f = sparseField();
    return () => ({ size: opts.size, query: { text_expansion: { [f]: { model_id: opts.model, model_text: nextQuery() } } } });
  };
  let d = 0;
  const bulk = (): RequestTemplate => {
    if (profile.sample.length === 0) throw new CliError(`index [${profile.index}] returned no documents to re-index for the bulk scenario`, EXIT.usage);
    return {
      kind: 'bulk', method: 'POST', path: `/_bulk`, contentType: 'application/x-ndjson',
      // Re-indexes sampled documents under their own ids: the index keeps its size while the run writes.
      body: () => {
        let body = '';
        for (let i = 0; i < opts.bulkSize; i++) {
          const doc = profile.sample[d++ % profile.sample.length];
          body += `{"index":{"_index":${JSON.stringify(profile.index)},"_id":${JSON.stringify(doc.id)}}}\n${JSON.stringify(doc.source)}\n`;
        }
        return body;
      },
    };
  };

  switch (scenario) {
    case 'match':
      return [search(match())];
    case 'multi_match': {
      const fields = opts.field ? [opts.field] : need(profile.textFields.length > 0 ? profile.textFields : undefined, `index [${profile.index}] has no text fields`);
      return [search(() => ({ size: opts.size, query: { multi_match: { query: nextQuery(), fields } } }))];
    }
    case 'faceted': {
      const facets = profile.keywordFields.slice(0, 3);
      if (facets.length === 0) throw new CliError(`scenario [faceted] needs a keyword field in index [${profile.index}] to aggregate on`, EXIT.usage);
      const m = match();
      return [search(() => ({ ...m(), aggs: Object.fromEntries(facets.map((f) => [f, { terms: { field: f, size: 10 } }])) }))];
    }
    case 'text_expansion':
      return [search(expansion())];
    case 'sparse_vector': {
      const f = sparseField();
      return [search(() => ({ size: opts.size, query: { sparse_vector: { field: f, inference_id: opts.model, query: nextQuery() } } }))];
    }
    case 'hybrid': {
      const f = textField();
      const s = sparseField();
      return [search(() => {
        const text = nextQuery();
        return {
          size: opts.size,
          retriever: { rrf: { retrievers: [
            { standard: { query: { match: { [f]: text } } } },
            { standard: { query: { text_expansion: { [s]: { model_id: opts.model, model_text: text } } } } },
          ] } },
        };
      })];
    }
    case 'autocomplete': {
      const sayt = opts.field ?? profile.searchAsYouTypeFields[0];
      const prefix = () => {
        // What a user has typed so far: the query with its last word cut to 1–3 letters.
        const words = nextQuery().split(' ');
        const last = words.pop()!;
        return [...words, last.slice(0, 1 + (last.length % 3))].join(' ');
      };
      if (sayt !== undefined && profile.searchAsYouTypeFields.includes(sayt)) {
        return [search(() => ({ size: opts.size, query: { multi_match: { query: prefix(), type: 'bool_prefix', fields: [sayt, `${sayt}._2gram`, `${sayt}._3gram`] } } }))];
      }
      const f = textField();
      return [search(() => ({ size: opts.size, query: { match_bool_prefix: { [f]: prefix() } } }))];
    }
    case 'bulk':
      return [bulk()];
    case 'mixed': {
      const [reads, writes] = parseMix(opts.mix);
      const s = search(match());
      const b = writes > 0 ? bulk() : undefined;
      return [...Array<RequestTemplate>(reads).fill(s), ...Array<RequestTemplate>(writes).fill(b!)];
    }
  }
}
