/** Postings scored by MaxScore, for benchmarks' "postings per query" figure. */
export const maxScoreStats = { postingsScored: 0 };
