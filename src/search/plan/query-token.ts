/** One token of analysed query text. */
export interface QueryToken {
  readonly term: string;
  readonly position: number;
  /** End offset in the query text (a last token ending before the text does is a whole word). */
  readonly endOffset: number;
  /** Positions the token spans when more than 1 (a multi-word synonym of synonym_graph). */
  readonly positionLength?: number;
}
