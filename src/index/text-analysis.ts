/**
 * What text fields of an index are analysed and scored with, from its settings: the analysis
 * (`index.analysis.*`, analysis/index-analysis.ts) and the similarities (`index.similarity.*`,
 * similarity.ts). `IndexTextSettings` is plain data — the coordinator sends it to build workers
 * with each segment build — and `resolveTextContext` turns it into the same analyzers anywhere.
 */
import {
  AnalysisConfigError, DEFAULT_INDEX_LIMITS, buildIndexAnalysis, type AnalysisSettings, type IndexAnalysis, type IndexLimits,
} from '../analysis/index.js';
import { IllegalArgumentError } from '../errors/index.js';
import { settingString, type FlatSettings } from './settings.js';
import { parseSimilarities, type SimilarityLookup, type SimilaritySettings } from './similarity.js';

export interface IndexTextSettings {
  readonly analysis: AnalysisSettings;
  readonly similarity: SimilaritySettings;
  readonly limits: IndexLimits;
}

export interface TextContext {
  readonly analysis: IndexAnalysis;
  readonly similarity: SimilarityLookup;
}

/** The settings under `prefix` as a nested object (values: strings or lists of strings). */
function nestUnder(flat: FlatSettings, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of flat) {
    if (!key.startsWith(prefix)) continue;
    const parts = key.slice(prefix.length).split('.');
    let cur = out;
    for (let i = 0; i < parts.length - 1; i++) {
      const next = cur[parts[i]];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) cur[parts[i]] = {};
      cur = cur[parts[i]] as Record<string, unknown>;
    }
    cur[parts[parts.length - 1]] = value;
  }
  return out;
}

export function textSettingsOf(flat: FlatSettings): IndexTextSettings {
  const int = (key: string, fallback: number) => {
    const v = settingString(flat, key);
    return v === undefined || v === '' ? fallback : Number(v);
  };
  return {
    analysis: nestUnder(flat, 'index.analysis.'),
    similarity: nestUnder(flat, 'index.similarity.'),
    limits: {
      maxNgramDiff: int('index.max_ngram_diff', DEFAULT_INDEX_LIMITS.maxNgramDiff),
      maxShingleDiff: int('index.max_shingle_diff', DEFAULT_INDEX_LIMITS.maxShingleDiff),
    },
  };
}

const contexts = new Map<string, TextContext>();
/** By object first: resolved mappings hold one settings object, looked up on every analyzer use. */
const byObject = new WeakMap<IndexTextSettings, TextContext>();

/**
 * The analyzers and similarities of these settings; a bad definition throws ES's
 * `illegal_argument_exception`. Memoised by object and by content (a structured clone — a task
 * sent to a worker — finds the same analysis).
 */
export function resolveTextContext(s: IndexTextSettings): TextContext {
  const known = byObject.get(s);
  if (known) return known;
  const key = JSON.stringify(s);
  let ctx = contexts.get(key);
  if (ctx) {
    byObject.set(s, ctx);
    return ctx;
  }
  let analysis: IndexAnalysis;
  try {
    analysis = buildIndexAnalysis(s.analysis, s.limits);
  } catch (e) {
    if (e instanceof AnalysisConfigError) throw new IllegalArgumentError(e.message);
    throw e;
  }
  ctx = { analysis, similarity: parseSimilarities(s.similarity) };
  if (contexts.size >= 64) contexts.delete(contexts.keys().next().value!);
  contexts.set(key, ctx);
  byObject.set(s, ctx);
  return ctx;
}

export const DEFAULT_TEXT_SETTINGS: IndexTextSettings = { analysis: {}, similarity: {}, limits: DEFAULT_INDEX_LIMITS };
export const DEFAULT_TEXT_CONTEXT: TextContext = resolveTextContext(DEFAULT_TEXT_SETTINGS);
