/**
 * The documents a capacity experiment indexes: the first `docs` documents of the user's JSONL file
 * (parsed as `load` parses it), or the deterministic BM25 corpus (src/cli/corpus) when no file is
 * given, so runs on different machines index the same data.
 */
import { CliError, EXIT } from '../cli-error.js';
import { generateBm25Corpus } from '../corpus/corpus.js';
import { readDocuments, resolveSourceFile, type SourceDoc } from '../load/source-reader.js';

export interface SampleData {
  /** What the documents are, for the report. */
  description: string;
  docs: SourceDoc[];
}

export async function sampleData(file: string | undefined, docs: number): Promise<SampleData> {
  if (file === undefined) {
    const corpus = generateBm25Corpus({ docs, queries: 1 });
    return {
      description: `the deterministic BM25 corpus (${docs} documents, 10–50 Zipf-distributed words each, seed 42)`,
      docs: corpus.docs.map((d, i) => ({ line: i + 1, id: d.id, source: { text: d.text } })),
    };
  }
  const path = resolveSourceFile(file);
  const out: SourceDoc[] = [];
  for await (const doc of readDocuments(path, 1, undefined)) {
    out.push(doc);
    if (out.length >= docs) break;
  }
  if (out.length === 0) throw new CliError(`[${file}] has no documents`, EXIT.usage);
  return { description: `the first ${out.length} documents of ${file}${out.length < docs ? ` (all it has; ${docs} were asked for)` : ''}`, docs: out };
}

export async function* iterate(docs: readonly SourceDoc[]): AsyncGenerator<SourceDoc> {
  for (const d of docs) yield { ...d, source: { ...d.source } };
}
