/**
 * `GET|POST /{index}/_termvectors/{id}` (ES TermVectorsService). Segments keep no term vectors, so
 * they are generated as ES generates them for fields without stored vectors: the document's
 * `_source` values re-analysed with each field's index analyzer (positions and offsets as indexing
 * produced them, values joined with Lucene's offset gap of 1 and the position increment gap), with
 * index-wide field statistics (`field_statistics`, on by default) and term statistics
 * (`term_statistics`) from the same statistics searches use.
 */
import { wildcardsIntersect } from '../../common/wildcard-intersection.js';
import { readSource } from '../../index/index.js';
import { fieldText, sourcePath } from '../../search/index.js';
import type { IndexService } from '../indices/index-service.js';
import type { IndicesService } from '../indices/indices-service.js';
import { SegmentStatsSource } from '../../search/index.js';
import { locateDocument } from './explain.js';

export interface TermVectorsOptions {
  /** Field patterns; null = every text field of the document. */
  readonly fields: readonly string[] | null;
  readonly positions: boolean;
  readonly offsets: boolean;
  readonly termStatistics: boolean;
  readonly fieldStatistics: boolean;
  readonly routing: string | null;
}

interface TermEntry {
  freq: number;
  tokens: Array<{ position: number; start_offset: number; end_offset: number }>;
}

export function termVectors(indices: IndicesService, name: string, id: string, opts: TermVectorsOptions): { status: number; body: Record<string, unknown> } {
  const index: IndexService = indices.require(name);
  const found = locateDocument(index, id, opts.routing);
  const head = { _index: index.name, _id: id };
  if (!found) return { status: 404, body: { ...head, found: false, took: 0 } };
  const start = performance.now();
  const sourceText = readSource(found.segment, found.doc);
  const source = sourceText === null ? {} : (JSON.parse(sourceText) as Record<string, unknown>);
  const stats = new SegmentStatsSource(index.shards.flatMap((s) => s.snapshot.segments.map((seg) => seg.reader)));
  const out: Record<string, unknown> = {};
  for (const [path, field] of [...index.resolvedMapping.fields].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const analyzed = field.type === 'text' || field.type === 'search_as_you_type';
    // By default the document's text fields (not the hidden search_as_you_type subfields).
    const wanted = opts.fields === null ? analyzed && (field.searchAsYouType === null || field.searchAsYouType.root === path) : opts.fields.some((p) => wildcardsIntersect(p, path));
    // ES TermVectorsService.isValidField: only string fields have term vectors (a vector has no terms).
    if (!wanted || field.type === 'dense_vector') continue;
    const text = fieldText({ field, sourcePath: sourcePath(field), tokenized: analyzed, maxAnalyzedOffset: null }, source);
    if (!text) continue;
    const terms = new Map<string, TermEntry>();
    for (let i = 0; i < text.terms.length; i++) {
      let e = terms.get(text.terms[i]);
      if (!e) terms.set(text.terms[i], (e = { freq: 0, tokens: [] }));
      e.freq++;
      e.tokens.push({ position: text.positions[i], start_offset: text.starts[i], end_offset: text.ends[i] });
    }
    const rendered: Record<string, unknown> = {};
    for (const term of [...terms.keys()].sort()) {
      const e = terms.get(term)!;
      rendered[term] = {
        ...(opts.termStatistics ? { doc_freq: stats.docFreq(path, term), ttf: stats.totalTermFreq(path, term) } : {}),
        term_freq: e.freq,
        ...(opts.positions || opts.offsets ? {
          tokens: e.tokens.map((t) => ({ ...(opts.positions ? { position: t.position } : {}), ...(opts.offsets ? { start_offset: t.start_offset, end_offset: t.end_offset } : {}) })),
        } : {}),
      };
    }
    const fs = stats.fieldStats(path);
    out[path] = {
      ...(opts.fieldStatistics ? { field_statistics: { sum_doc_freq: fs.sumDocFreq, doc_count: fs.docCount, sum_ttf: fs.sumTotalTermFreq } } : {}),
      terms: rendered,
    };
  }
  return { status: 200, body: { ...head, _version: found.segment.version.get(found.doc), found: true, took: Math.round(performance.now() - start), term_vectors: out } };
}
