/**
 * What `bench` learns about the user's index before building requests: its fields by type (from
 * `GET /<index>/_mapping`), its document count, and a sample of its documents (their `_id` and
 * `_source`, for bulk re-indexing and for queries drawn from the index's own terms).
 */
import { CliError, EXIT } from '../cli-error.js';
import type { EsClient } from '../es-client.js';

export interface IndexProfile {
  index: string;
  docs: number;
  /** Dotted paths of `text` fields. */
  textFields: string[];
  /** `search_as_you_type` fields (autocomplete prefers them). */
  searchAsYouTypeFields: string[];
  keywordFields: string[];
  /** `sparse_vector` / `rank_features` fields (text_expansion, sparse_vector, hybrid). */
  sparseFields: string[];
  sample: Array<{ id: string; source: Record<string, unknown> }>;
}

const SAMPLE_SIZE = 500;

function walk(properties: Record<string, any>, prefix: string, out: IndexProfile): void {
  for (const [name, def] of Object.entries(properties ?? {})) {
    const path = prefix + name;
    switch (def?.type) {
      case 'text': out.textFields.push(path); break;
      case 'match_only_text': out.textFields.push(path); break;
      case 'search_as_you_type': out.searchAsYouTypeFields.push(path); break;
      case 'keyword': case 'constant_keyword': out.keywordFields.push(path); break;
      case 'sparse_vector': case 'rank_features': out.sparseFields.push(path); break;
    }
    // A text field's keyword sub-field is what a facet aggregates on.
    for (const [sub, subDef] of Object.entries((def?.fields ?? {}) as Record<string, any>)) {
      if (subDef?.type === 'keyword') out.keywordFields.push(`${path}.${sub}`);
    }
    if (def?.properties) walk(def.properties, `${path}.`, out);
  }
}

export async function profileIndex(client: EsClient, index: string): Promise<IndexProfile> {
  const mapping = await client.request<any>('GET', `/${encodeURIComponent(index)}/_mapping`, undefined, { allow: [404] });
  if (mapping.status === 404) throw new CliError(`the server has no index [${index.slice(0, 60)}]; load one first (threadsearch load <file> --index ${index.slice(0, 60)})`, EXIT.usage);
  const profile: IndexProfile = { index, docs: 0, textFields: [], searchAsYouTypeFields: [], keywordFields: [], sparseFields: [], sample: [] };
  for (const m of Object.values(mapping.body as Record<string, any>)) walk(m?.mappings?.properties ?? {}, '', profile);
  const count = await client.request<any>('GET', `/${encodeURIComponent(index)}/_count`);
  profile.docs = Number(count.body?.count ?? 0);
  if (profile.docs === 0) throw new CliError(`index [${index.slice(0, 60)}] has no documents to search`, EXIT.usage);
  const sample = await client.request<any>('POST', `/${encodeURIComponent(index)}/_search`, { size: SAMPLE_SIZE, query: { match_all: {} } });
  profile.sample = (sample.body?.hits?.hits ?? []).map((h: any) => ({ id: String(h._id), source: (h._source ?? {}) as Record<string, unknown> }));
  return profile;
}
