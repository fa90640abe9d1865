/**
 * The deterministic BM25 benchmark corpus of performance.md §2.1: pseudo-English words with a Zipf
 * term distribution, short documents and 2–3-term queries. The same parameters always give the same
 * vocabulary, documents and queries, so the project's server, ref-taat and the npm peers can be fed
 * identical data and their top-10s compared.
 *
 * 200k documents are ~6M tokens, so documents are drawn as term ids into one Uint32Array and each
 * text is assembled in a reused byte buffer: one string allocation per document, none per token.
 */
import { mulberry32 } from '../../common/prng.js';
import type { Random } from '../../common/prng.js';
import { zipfSampler } from './zipf.js';

export interface Bm25CorpusParams {
  docs: number;
  vocab: number;
  /** Zipf exponent. */
  s: number;
  minLen: number;
  maxLen: number;
  seed: number;
  queries: number;
  /** Queries draw only ranks ≥ this (the most frequent words act as stop words). */
  qFromRank: number;
}

export const BM25_CORPUS_DEFAULTS: Readonly<Bm25CorpusParams> = Object.freeze({
  docs: 200_000,
  vocab: 50_000,
  s: 1.0,
  minLen: 10,
  maxLen: 50,
  seed: 42,
  queries: 2_000,
  qFromRank: 50,
});

export interface BenchDoc {
  /** The decimal document index. */
  id: string;
  text: string;
}

export interface Bm25Corpus {
  params: Bm25CorpusParams;
  /** vocabulary[r] is the word of Zipf rank r (rank 0 the most frequent). */
  vocabulary: string[];
  docs: BenchDoc[];
  queries: string[];
}

/** The corpus as term ids (CSR): document d's tokens are termIds[docStarts[d] .. docStarts[d + 1]). */
export interface Bm25TermIdCorpus {
  params: Bm25CorpusParams;
  vocabulary: string[];
  docStarts: Uint32Array;
  termIds: Uint32Array;
  queries: string[];
}

const ONSETS = ['b', 'd', 'f', 'g', 'k', 'l', 'm', 'n', 'p', 'r', 't', 'v', 'z', 'ch', 'sh', 'th', 'br', 'tr', 'pl', 'gr', 'st', 'w', 'h', 'j'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou', 'ea', 'io'];
// Three empty codas make open final syllables as likely as any single closing consonant.
const CODAS = ['', '', '', 'n', 'r', 'l', 'm', 'k', 't'];

function pick(list: readonly string[], random: Random): string {
  return list[Math.floor(random() * list.length)];
}

/**
 * The vocabulary of §2.1: frequent (low-rank) words get fewer syllables. Draw order per attempt:
 * syllable-count coin, then for each syllable onset, vowel (and coda on the last one); a word that is
 * too short or already used is redrawn from scratch with the same stream.
 */
export function generateVocabulary(size: number, seed: number): string[] {
  const random = mulberry32(seed);
  const words: string[] = new Array<string>(size);
  const used = new Set<string>();
  for (let r = 0; r < size; r++) {
    let word = '';
    for (let attempt = 0; ; attempt++) {
      // The 1-syllable space is small (24·9·7 distinct words); a runaway loop means bad parameters.
      if (attempt > 10_000) throw new Error(`generateVocabulary: cannot find a new word for rank ${r}`);
      const syllables = Math.min(5, 1 + Math.floor(Math.log10(r + 2) / 2) + (random() < 0.5 ? 0 : 1));
      word = '';
      for (let k = 0; k < syllables; k++) {
        word += pick(ONSETS, random) + pick(VOWELS, random);
        if (k === syllables - 1) word += pick(CODAS, random);
      }
      if (word.length >= 2 && !used.has(word)) break;
    }
    used.add(word);
    words[r] = word;
  }
  return words;
}

function resolveParams(params: Partial<Bm25CorpusParams>): Bm25CorpusParams {
  const p = { ...BM25_CORPUS_DEFAULTS, ...params };
  if (!(p.minLen >= 1 && p.maxLen >= p.minLen)) throw new RangeError('corpus: need 1 ≤ minLen ≤ maxLen');
  if (!(p.qFromRank >= 0 && p.vocab - p.qFromRank >= 3)) throw new RangeError('corpus: need ≥ 3 query ranks');
  return p;
}

/** Queries of §2.1: 2 or 3 distinct terms from the Zipf law restricted to ranks ≥ qFromRank. */
function generateQueries(p: Bm25CorpusParams, vocabulary: readonly string[]): string[] {
  const random = mulberry32(p.seed * 104729 + 3);
  const zipf = zipfSampler(p.vocab, p.s, p.qFromRank);
  const queries: string[] = new Array<string>(p.queries);
  const terms = [0, 0, 0];
  for (let q = 0; q < p.queries; q++) {
    const want = random() < 0.5 ? 2 : 3;
    let have = 0;
    while (have < want) {
      const r = zipf.sample(random);
      let dup = false;
      for (let i = 0; i < have; i++) if (terms[i] === r) dup = true;
      if (!dup) terms[have++] = r;
    }
    let text = vocabulary[terms[0]];
    for (let i = 1; i < want; i++) text += ' ' + vocabulary[terms[i]];
    queries[q] = text;
  }
  return queries;
}

/** Documents as term ids, drawn with the document stream (seed · 7919 + 1). */
export function generateBm25TermIds(params: Partial<Bm25CorpusParams> = {}): Bm25TermIdCorpus {
  const p = resolveParams(params);
  const vocabulary = generateVocabulary(p.vocab, p.seed);
  const random = mulberry32(p.seed * 7919 + 1);
  const zipf = zipfSampler(p.vocab, p.s);
  const docStarts = new Uint32Array(p.docs + 1);
  // Start at the expected size (+10 %) and grow by doubling, instead of reserving docs · maxLen.
  let termIds = new Uint32Array(Math.max(64, Math.ceil((p.docs * (p.minLen + p.maxLen)) / 2 * 1.1)));
  let n = 0;
  const span = p.maxLen - p.minLen + 1;
  for (let d = 0; d < p.docs; d++) {
    const len = p.minLen + Math.floor(random() * span);
    if (n + len > termIds.length) {
      const grown = new Uint32Array(termIds.length * 2);
      grown.set(termIds);
      termIds = grown;
    }
    for (let i = 0; i < len; i++) termIds[n++] = zipf.sample(random);
    docStarts[d + 1] = n;
  }
  return { params: p, vocabulary, docStarts, termIds: termIds.slice(0, n), queries: generateQueries(p, vocabulary) };
}

/** Turns term-id documents into `{id, text}` with single spaces, one string allocation per document. */
export function termIdsToDocs(corpus: Bm25TermIdCorpus): BenchDoc[] {
  const { vocabulary, docStarts, termIds } = corpus;
  // All words' bytes in one pool: copying ~7 bytes in a JS loop beats a Buffer.copy call per token.
  const wordStart = new Uint32Array(vocabulary.length + 1);
  for (let r = 0; r < vocabulary.length; r++) wordStart[r + 1] = wordStart[r] + vocabulary[r].length;
  const pool = Buffer.from(vocabulary.join(''), 'latin1');
  let longest = 1;
  for (let r = 0; r < vocabulary.length; r++) longest = Math.max(longest, wordStart[r + 1] - wordStart[r]);
  const docCount = docStarts.length - 1;
  let maxTokens = 0;
  for (let d = 0; d < docCount; d++) maxTokens = Math.max(maxTokens, docStarts[d + 1] - docStarts[d]);
  const scratch = Buffer.allocUnsafe(maxTokens * (longest + 1));
  const docs: BenchDoc[] = new Array<BenchDoc>(docCount);
  for (let d = 0; d < docCount; d++) {
    let at = 0;
    const end = docStarts[d + 1];
    for (let i = docStarts[d]; i < end; i++) {
      if (at > 0) scratch[at++] = 0x20;
      const t = termIds[i];
      const wordEnd = wordStart[t + 1];
      for (let b = wordStart[t]; b < wordEnd; b++) scratch[at++] = pool[b];
    }
    docs[d] = { id: String(d), text: scratch.toString('latin1', 0, at) };
  }
  return docs;
}

/** The corpus of §2.1 with documents as text; parameters default to the spec values. */
export function generateBm25Corpus(params: Partial<Bm25CorpusParams> = {}): Bm25Corpus {
  const ids = generateBm25TermIds(params);
  return { params: ids.params, vocabulary: ids.vocabulary, docs: termIdsToDocs(ids), queries: ids.queries };
}
