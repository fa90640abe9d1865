/**
 * Java's String.hashCode and HashMap iteration order, against values Java itself gives:
 * "hello".hashCode() = 99162322, "Aa" and "BB" collide (2112), "polygenelubricants" hashes to
 * Integer.MIN_VALUE; a HashMap iterates by bucket (spread hash masked by its table size: 16, doubled
 * past three quarters full), colliding keys in insertion order.
 */
import { describe, expect, it } from 'vitest';
import { javaHashMapOrder } from '../../src/common/java-hash-order.js';
import { javaStringHash } from '../../src/common/java-hash.js';

describe('javaStringHash', () => {
  it('is String.hashCode over UTF-16 code units, in 32-bit arithmetic', () => {
    expect(javaStringHash('')).toBe(0);
    expect(javaStringHash('a')).toBe(97);
    expect(javaStringHash('hello')).toBe(99162322);
    expect(javaStringHash('Aa')).toBe(2112);
    expect(javaStringHash('BB')).toBe(2112);
    expect(javaStringHash('polygenelubricants')).toBe(-2147483648);
    // A surrogate pair is two code units: U+1F600 is \uD83D\uDE00 → 55357 × 31 + 56832.
    expect(javaStringHash('\u{1F600}')).toBe(55357 * 31 + 56832);
  });
});

describe('javaHashMapOrder', () => {
  it('iterates by bucket of a 16-bucket table, whatever the insertion order', () => {
    // Buckets: "c" 3, "a" 1, "b" 2 (single characters hash to their code, 97 & 15 = 1).
    expect(javaHashMapOrder(['c', 'a', 'b'])).toEqual(['a', 'b', 'c']);
    // The yaml test's names: match_field_1 → 10, match_field_2 → 11; title_dog 2 before title_quick 4.
    expect(javaHashMapOrder(['match_field_2', 'match_field_1'])).toEqual(['match_field_1', 'match_field_2']);
    expect(javaHashMapOrder(['title_quick', 'title_dog'])).toEqual(['title_dog', 'title_quick']);
  });

  it('keeps colliding keys in insertion order', () => {
    expect(javaHashMapOrder(['BB', 'Aa'])).toEqual(['BB', 'Aa']);
    expect(javaHashMapOrder(['Aa', 'BB'])).toEqual(['Aa', 'BB']);
  });

  it('doubles the table past three quarters full: 12 keys in 16 buckets, 13 in 32', () => {
    // "q" (113) and "a" (97) share bucket 1 of 16, but not of 32 (113 & 31 = 17).
    const twelve = ['q', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'];
    expect(javaHashMapOrder(twelve).slice(0, 2)).toEqual(['q', 'a']);
    const thirteen = [...twelve, 'l'];
    const order = javaHashMapOrder(thirteen);
    expect(order[0]).toBe('a');
    expect(order.at(-1)).toBe('q');
  });
});
