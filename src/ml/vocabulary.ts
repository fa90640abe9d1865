/**
 * A WordPiece vocabulary in BERT's `vocab.txt` form: one token per line, line number = id,
 * continuation pieces written `##x`, special tokens `[PAD] [UNK] [CLS] [SEP] [MASK] [unusedN]`.
 */
export interface Vocabulary {
  readonly tokens: readonly string[];
  readonly ids: ReadonlyMap<string, number>;
  /** Continuation pieces by their text without `##` (WordPiece looks them up this way). */
  readonly continuationIds: ReadonlyMap<string, number>;
  readonly unkId: number;
  readonly clsId: number;
  readonly sepId: number;
  /** `[PAD]` (0 in BERT's vocabulary; 0 when the vocabulary has none): what batches are padded with. */
  readonly padId: number;
}

function requireId(ids: Map<string, number>, token: string): number {
  const id = ids.get(token);
  if (id === undefined) throw new Error(`vocabulary has no ${token} token`);
  return id;
}

export function parseVocabulary(text: string): Vocabulary {
  const tokens = text.split('\n');
  if (tokens[tokens.length - 1] === '') tokens.pop();
  const ids = new Map<string, number>();
  // The first occurrence wins, as in BERT's load_vocab.
  for (let id = 0; id < tokens.length; id++) if (!ids.has(tokens[id])) ids.set(tokens[id], id);
  const continuationIds = new Map<string, number>();
  for (const [token, id] of ids) if (token.startsWith('##') && token.length > 2) continuationIds.set(token.slice(2), id);
  return { tokens, ids, continuationIds, unkId: requireId(ids, '[UNK]'), clsId: requireId(ids, '[CLS]'), sepId: requireId(ids, '[SEP]'), padId: ids.get('[PAD]') ?? 0 };
}

/** `[PAD]`, `[UNK]`, `[CLS]`, `[SEP]`, `[MASK]` and `[unusedN]`: never model output. */
export function isSpecialToken(token: string): boolean {
  return token.length > 2 && token.startsWith('[') && token.endsWith(']');
}
