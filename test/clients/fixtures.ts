/**
 * Deterministic documents for the client scenarios, and the plain-JS answers the server's
 * results are compared with. Prices are distinct multiples of 0.25 (exact in binary, so sort
 * values round-trip exactly) and every field is a pure function of the document number.
 */

export interface Product {
  readonly sku: string;
  readonly title: string;
  readonly color: string;
  readonly category: string;
  readonly price: number;
  readonly stock: number;
  readonly tags: string[];
}

export const COLORS = ['red', 'green', 'blue', 'black', 'white'] as const;
export const CATEGORIES = ['books', 'garden', 'toys', 'tools'] as const;
const ADJECTIVES = ['quick', 'sturdy', 'shiny', 'quiet', 'tiny', 'heavy', 'bright'] as const;
export const NOUNS = ['lamp', 'hammer', 'kettle', 'shovel', 'puzzle', 'novel', 'drone', 'rake', 'clock', 'blanket', 'kite'] as const;

/** 37 is coprime with 2000, so `i * 37 % 2000` is a permutation: every price is distinct. */
export function product(i: number): Product {
  return {
    sku: `sku-${String(i).padStart(4, '0')}`,
    title: `${ADJECTIVES[i % ADJECTIVES.length]} ${NOUNS[i % NOUNS.length]} number ${i}`,
    color: COLORS[i % COLORS.length],
    category: CATEGORIES[i % CATEGORIES.length],
    price: ((i * 37) % 2000) / 4,
    stock: i % 13,
    tags: i % 2 === 0 ? ['even', `mod3-${i % 3}`] : [`mod3-${i % 3}`],
  };
}

export function products(n: number): Product[] {
  return Array.from({ length: n }, (_, i) => product(i));
}

export const PRODUCT_MAPPINGS = {
  properties: {
    sku: { type: 'keyword' },
    title: { type: 'text' },
    color: { type: 'keyword' },
    category: { type: 'keyword' },
    price: { type: 'double' },
    stock: { type: 'integer' },
    tags: { type: 'keyword' },
  },
} as const;

/** Keyword order as Lucene sorts it: by UTF-16 code units, which `<` on strings is for ASCII. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
