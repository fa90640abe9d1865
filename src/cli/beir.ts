/**
 * BEIR dataset folders (corpus.jsonl, queries.jsonl, qrels/<split>.tsv), as the `eval` and `load`
 * commands and the relevance benchmarks read them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BeirDoc {
  title: string;
  text: string;
}

/** qrels.get(queryId).get(docId) = judgment. */
export type Qrels = Map<string, Map<string, number>>;

export interface BeirDataset {
  corpus: Map<string, BeirDoc>;
  queries: Map<string, string>;
  qrels: Qrels;
}

function jsonLines(path: string): unknown[] {
  const out: unknown[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const trimmed = line.trim();
    if (trimmed.length > 0) out.push(JSON.parse(trimmed));
  }
  return out;
}

/** A BEIR qrels TSV: `query-id corpus-id score`, one header line, CRLF or LF line ends. */
export function loadQrels(path: string): Qrels {
  const qrels: Qrels = new Map();
  const lines = readFileSync(path, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    if (line.trim().length === 0) continue;
    const [qid, docId, score] = line.split('\t');
    const rel = Number(score);
    // The header ("query-id corpus-id score") is the only line whose score is not a number.
    if (i === 0 && (score === undefined || Number.isNaN(rel))) continue;
    if (qid === undefined || docId === undefined || !Number.isFinite(rel)) {
      throw new Error(`${path}:${i + 1}: malformed qrels line ${JSON.stringify(line)}`);
    }
    let judged = qrels.get(qid);
    if (!judged) qrels.set(qid, (judged = new Map()));
    judged.set(docId, rel);
  }
  return qrels;
}

/** Loads corpus.jsonl, queries.jsonl and qrels/<split>.tsv from a BEIR dataset folder. */
export function loadBeir(dir: string, split = 'test'): BeirDataset {
  const corpus = new Map<string, BeirDoc>();
  for (const row of jsonLines(join(dir, 'corpus.jsonl')) as Array<{ _id: string; title?: string; text?: string }>) {
    corpus.set(String(row._id), { title: row.title ?? '', text: row.text ?? '' });
  }
  const queries = new Map<string, string>();
  for (const row of jsonLines(join(dir, 'queries.jsonl')) as Array<{ _id: string; text: string }>) {
    queries.set(String(row._id), row.text);
  }
  return { corpus, queries, qrels: loadQrels(join(dir, 'qrels', `${split}.tsv`)) };
}

/** The queries that have at least one relevant judgment, in queries.jsonl order: the ones to run. */
export function judgedQueries(dataset: BeirDataset): Array<{ id: string; text: string }> {
  const out: Array<{ id: string; text: string }> = [];
  for (const [id, text] of dataset.queries) {
    const judged = dataset.qrels.get(id);
    if (judged && hasRelevant(judged)) out.push({ id, text });
  }
  return out;
}

export function hasRelevant(judged: ReadonlyMap<string, number>): boolean {
  for (const rel of judged.values()) if (rel >= 1) return true;
  return false;
}

