/**
 * The demo's sample data: the web platform features of the `web-features` npm package
 * (W3C WebDX Community Group, Apache-2.0; installed by `npm ci`, nothing is downloaded when it
 * loads), about 1,200 documents with real prose (each feature's description), keywords (its area
 * and Baseline status), numbers (the first Chrome version that has it) and dates (when it became
 * Baseline). Discouraged (deprecated) features are marked `visibility: internal`: the demo proxy
 * hides them, to show how a proxy filters restricted documents.
 */
import { createRequire } from 'node:module';

export interface FeatureDoc {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** The top-level group (CSS, HTML, JavaScript, …), or "Other". */
  readonly area: string;
  readonly groups: string[];
  readonly baseline: 'Widely available' | 'Newly available' | 'Limited availability';
  readonly baseline_date?: string;
  readonly chrome_version?: number;
  readonly compat_features: number;
  readonly spec?: string;
  readonly url: string;
  readonly visibility: 'public' | 'internal';
  /** Completion inputs; internal documents get none (a completion suggester cannot be filtered by a query). */
  readonly suggest?: { input: string[]; weight: number };
}

/** The mapping: `name` completes as you type; `description_embedding` is filled by the inference pipeline. */
export const SAMPLE_MAPPINGS = {
  properties: {
    name: { type: 'search_as_you_type' },
    description: { type: 'text' },
    area: { type: 'keyword' },
    groups: { type: 'keyword' },
    baseline: { type: 'keyword' },
    baseline_date: { type: 'date' },
    chrome_version: { type: 'integer' },
    compat_features: { type: 'integer' },
    spec: { type: 'keyword' },
    url: { type: 'keyword' },
    visibility: { type: 'keyword' },
    suggest: { type: 'completion' },
    description_embedding: { type: 'sparse_vector' },
  },
} as const;

interface RawFeature {
  kind: string;
  name: string;
  description: string;
  group?: string | string[];
  spec?: string | string[];
  discouraged?: unknown;
  compat_features?: string[];
  status?: { baseline?: 'high' | 'low' | false; baseline_low_date?: string; support?: Record<string, string> };
}
interface RawData {
  features: Record<string, RawFeature>;
  groups: Record<string, { name: string; parent?: string }>;
}

const BASELINE = { high: 'Widely available', low: 'Newly available' } as const;
/** Widely available features complete first, then newly available ones. */
const WEIGHT = { 'Widely available': 30, 'Newly available': 20, 'Limited availability': 10 } as const;

export function loadFeatureDocs(): FeatureDoc[] {
  const data = createRequire(import.meta.url)('web-features/data.json') as RawData;
  const groupName = (id: string) => data.groups[id]?.name ?? id;
  const rootOf = (id: string): string => {
    let g = id;
    for (let i = 0; i < 20 && data.groups[g]?.parent; i++) g = data.groups[g].parent!;
    return g;
  };
  const docs: FeatureDoc[] = [];
  for (const [id, f] of Object.entries(data.features)) {
    if (f.kind !== 'feature') continue;
    const groups = [f.group ?? []].flat();
    const baseline = f.status?.baseline ? BASELINE[f.status.baseline] : 'Limited availability';
    const chrome = Number.parseFloat((f.status?.support?.chrome ?? '').replace(/^≤/, ''));
    const visibility = f.discouraged ? 'internal' : 'public';
    docs.push({
      id,
      name: f.name,
      description: f.description,
      area: groups.length > 0 ? groupName(rootOf(groups[0])) : 'Other',
      groups: groups.map(groupName),
      baseline,
      ...(f.status?.baseline_low_date ? { baseline_date: f.status.baseline_low_date.replace(/^≤/, '') } : {}),
      ...(Number.isFinite(chrome) ? { chrome_version: Math.floor(chrome) } : {}),
      compat_features: f.compat_features?.length ?? 0,
      ...(f.spec ? { spec: [f.spec].flat()[0] } : {}),
      url: `https://web-platform-dx.github.io/web-features-explorer/features/${id}/`,
      visibility,
      ...(visibility === 'public' ? { suggest: { input: [f.name], weight: WEIGHT[baseline] } } : {}),
    });
  }
  return docs;
}
