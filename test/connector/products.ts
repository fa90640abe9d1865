/**
 * The catalogue the connector suite searches: 30 hand-written products with the field kinds a
 * Search UI app facets and searches on, and the plain-JS answers the connector's results are
 * compared with (term buckets, range membership, text tokens). Every price and every release date
 * is distinct, so sorted orders are fully determined; p14, p26 and p28 lack `tags` and p28 lacks
 * `release_date`, so `none` filters and sorts meet documents without the field; only p06 is out of
 * stock (`in_stock: false`).
 */

export interface Product {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly brand: string;
  readonly category: string;
  readonly tags?: readonly string[];
  readonly price: number;
  readonly stock: number;
  readonly in_stock: boolean;
  readonly release_date?: string;
  readonly url: string;
  readonly suggest: { readonly input: readonly string[]; readonly weight: number };
}

export const INDEX = 'products';

/** Text with keyword subfields, numbers, dates, keyword facets, search_as_you_type and completion. */
export const MAPPINGS = {
  properties: {
    title: { type: 'search_as_you_type' },
    description: { type: 'text' },
    brand: { type: 'text', fields: { keyword: { type: 'keyword' } } },
    category: { type: 'keyword' },
    tags: { type: 'keyword' },
    price: { type: 'double' },
    stock: { type: 'integer' },
    in_stock: { type: 'boolean' },
    release_date: { type: 'date' },
    url: { type: 'keyword' },
    suggest: { type: 'completion' },
  },
} as const;

type Row = [id: string, title: string, brand: string, category: string, tags: string[] | null, price: number, stock: number, date: string | null, weight: number, description: string, extraInputs?: string[]];

// prettier-ignore
const ROWS: Row[] = [
  ['p01', 'Laptop Pro 14', 'Acme', 'laptops', ['portable', 'work'], 1299, 12, '2023-03-15', 30, 'A thin and light laptop for professionals with a bright 14 inch display'],
  ['p02', 'Laptop Air 13', 'Globex', 'laptops', ['portable'], 899, 5, '2024-02-01', 25, 'An ultraportable laptop with all day battery life'],
  ['p03', 'Gaming Laptop 17', 'Initech', 'laptops', ['gaming'], 1899, 3, '2024-09-10', 20, 'A powerful gaming laptop with a fast refresh rate display'],
  ['p04', 'Chromebook 11', 'Soylent', 'laptops', ['portable', 'school'], 249, 40, '2021-09-01', 9, 'A simple notebook for school and browsing'],
  ['p05', 'Workstation Laptop 16', 'Umbrella', 'laptops', ['work'], 2499, 2, '2025-01-20', 7, 'A mobile workstation for video editing and 3D rendering'],
  // Exactly 500: inside both inclusive range options "50 to 500" and "500 and up".
  ['p06', 'Laptop Lite 12', 'Globex', 'laptops', ['portable'], 500, 0, '2022-06-30', 12, 'An affordable laptop for students'],
  ['p07', 'Smartphone X', 'Acme', 'phones', ['5g', 'camera'], 999, 20, '2024-10-01', 28, 'A flagship smartphone with a triple camera'],
  ['p08', 'Smartphone Mini', 'Acme', 'phones', ['5g', 'compact'], 699, 15, '2023-09-22', 14, 'A compact smartphone that fits every pocket'],
  ['p09', 'Budget Phone A1', 'Soylent', 'phones', ['budget'], 149, 60, '2022-03-03', 6, 'A basic phone with long battery life'],
  ['p10', 'Rugged Phone R2', 'Umbrella', 'phones', ['outdoor', 'waterproof'], 449, 8, '2023-05-05', 5, 'A waterproof phone built for outdoor work'],
  ['p11', 'Foldable Phone Z', 'Globex', 'phones', ['5g'], 1799, 4, '2025-03-01', 11, 'A foldable phone with a large inner screen'],
  ['p12', 'Wireless Headphones', 'Globex', 'audio', ['wireless', 'bluetooth'], 199, 25, '2023-06-30', 22, 'Over ear headphones with noise cancelling', ['Headphones']],
  ['p13', 'Wireless Earbuds', 'Acme', 'audio', ['wireless', 'bluetooth', 'portable'], 129, 50, '2024-04-18', 19, 'Small earbuds with a charging case'],
  ['p14', 'Wired Headphones', 'Umbrella', 'audio', null, 59, 30, '2021-08-08', 10, 'Studio headphones with a detachable cable', ['Headphones']],
  ['p15', 'Bluetooth Speaker', 'Initech', 'audio', ['wireless', 'bluetooth', 'outdoor'], 89, 35, '2022-12-01', 17, 'A portable speaker with deep bass'],
  ['p16', 'Waterproof Speaker', 'Umbrella', 'audio', ['bluetooth', 'outdoor', 'waterproof'], 159, 18, '2024-07-07', 13, 'A speaker you can take to the beach and the pool'],
  // The evening of the last day of 2023: inside `lte: "2023-12-31"`, which ES rounds up to the day's end.
  ['p17', 'Soundbar 300', 'Soylent', 'audio', ['home'], 299, 9, '2023-12-31T18:00:00Z', 4, 'A slim soundbar for the living room'],
  ['p18', 'Gaming Headset', 'Initech', 'audio', ['gaming', 'wired'], 79, 22, '2022-11-11', 15, 'A headset with a boom microphone for gaming', ['Headset']],
  ['p19', 'Laptop Sleeve 14', 'Acme', 'accessories', ['portable'], 29.5, 100, '2022-05-20', 18, 'A padded sleeve that protects a 14 inch laptop'],
  ['p20', 'Laptop Stand', 'Soylent', 'accessories', ['work'], 45, 70, '2023-11-02', 8, 'An aluminium stand that raises your laptop to eye level'],
  ['p21', 'Wireless Mouse', 'Globex', 'accessories', ['wireless', 'work'], 25, 150, '2021-02-14', 16, 'A quiet wireless mouse with a long battery life'],
  ['p22', 'Mechanical Keyboard', 'Initech', 'accessories', ['gaming', 'wired'], 119, 45, '2023-02-28', 21, 'A keyboard with tactile switches and backlight'],
  ['p23', 'USB-C Charger 65W', 'Umbrella', 'accessories', ['power'], 39, 200, '2024-01-05', 3, 'A compact charger for laptops and phones'],
  ['p24', 'Phone Case', 'Acme', 'accessories', ['protective'], 19, 300, '2022-08-19', 2, 'A slim protective case for phones'],
  ['p25', 'Screen Protector', 'Globex', 'accessories', ['protective'], 12.5, 400, '2023-07-01', 1, 'Tempered glass that protects your phone screen'],
  ['p26', 'Mirrorless Camera M50', 'Globex', 'cameras', null, 749, 7, '2022-10-10', 24, 'A mirrorless camera with interchangeable lenses'],
  ['p27', 'Action Camera Go', 'Initech', 'cameras', ['outdoor', 'waterproof'], 329, 16, '2024-05-25', 23, 'A waterproof action camera for outdoor sports'],
  ['p28', 'Instant Camera', 'Soylent', 'cameras', null, 69, 28, null, 26, 'Prints photos in seconds'],
  ['p29', 'Camera Tripod', 'Umbrella', 'cameras', ['photo', 'outdoor'], 35, 55, '2023-04-04', 27, 'A light tripod for cameras and phones'],
  ['p30', 'Drone Camera 4K', 'Acme', 'cameras', ['outdoor'], 1099, 6, '2025-06-15', 29, 'A folding drone with a 4K camera'],
];

export const PRODUCTS: readonly Product[] = ROWS.map(([id, title, brand, category, tags, price, stock, date, weight, description, extraInputs = []]) => ({
  id,
  title,
  description,
  brand,
  category,
  ...(tags !== null ? { tags } : {}),
  price,
  stock,
  in_stock: stock > 0,
  ...(date !== null ? { release_date: date } : {}),
  url: `/products/${id}`,
  suggest: { input: [title, ...extraInputs], weight },
}));

export const BY_ID = new Map(PRODUCTS.map((p) => [p.id, p]));

/** The value of a (sub)field as a list, as a keyword field indexes it (`brand.keyword` reads `brand`). */
export function fieldValues(p: Product, field: string): Array<string | number | boolean> {
  const v = (p as unknown as Record<string, unknown>)[field.replace(/\.keyword$/, '')];
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v as string | number | boolean];
}

/** ES terms buckets: `_count` desc (ties by key asc) or `_key`, no empty buckets, cut at `size`. */
export function termsBuckets(docs: readonly Product[], field: string, size: number, order: 'count' | 'key' = 'count', direction: 'asc' | 'desc' = order === 'count' ? 'desc' : 'asc'): Array<{ value: string | number; count: number }> {
  const counts = new Map<string | number, number>();
  // A boolean term's bucket key is 1 or 0 (with key_as_string "true"/"false"), as ES renders it.
  for (const d of docs) for (const v of new Set(fieldValues(d, field).map((x) => (typeof x === 'boolean' ? Number(x) : x)))) counts.set(v, (counts.get(v) ?? 0) + 1);
  const sign = direction === 'asc' ? 1 : -1;
  const byKey = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  return [...counts]
    .sort(([ka, ca], [kb, cb]) => (order === 'count' ? sign * (ca - cb) || byKey(ka, kb) : sign * byKey(ka, kb)))
    .slice(0, size)
    .map(([value, count]) => ({ value, count }));
}

const DAY_MS = 86_400_000;

/**
 * A range bound as ES compares it: numbers (or numeric strings) as numbers, dates as epoch millis.
 * An upper date bound without a time (`lte: "2023-12-31"`) is rounded up to the last millisecond
 * of that day, as ES fills missing date components for `lte` (ES "Range query", date math rounding).
 */
function bound(v: string | number, upper: boolean): number {
  if (typeof v === 'number' || /^\d+(\.\d+)?$/.test(v)) return Number(v);
  return Date.parse(v) + (upper && /^\d{4}-\d{2}-\d{2}$/.test(v) ? DAY_MS - 1 : 0);
}

/** Whether some value of `field` lies within the inclusive range, as a `range` query with gte/lte. */
export function inRange(p: Product, field: string, range: { from?: string | number; to?: string | number }): boolean {
  return fieldValues(p, field).some((raw) => {
    const v = typeof raw === 'string' ? Date.parse(raw) : Number(raw);
    return (range.from === undefined || v >= bound(range.from, false)) && (range.to === undefined || v <= bound(range.to, true));
  });
}

/** The standard analyzer's tokens for ASCII text: lowercase, split on anything not a letter or digit. */
export function tokens(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter((t) => t !== '');
}

/** Ids of the products, in catalogue (= write) order. */
export function ids(docs: readonly Product[]): string[] {
  return docs.map((d) => d.id);
}
