/** Java's hashCode of a String and of a long, and hppc's bit mixer: where ES derives a seed or a salt from them. */

/** String.hashCode: s[0]·31^(n−1) + … + s[n−1] over UTF-16 code units, in int arithmetic. */
export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** Long.hashCode: (int) (v ^ (v >>> 32)); an int's is itself. */
export function javaLongHash(v: number): number {
  if (Number.isInteger(v) && v >= -2147483648 && v <= 2147483647) return v;
  const b = BigInt(Math.trunc(v));
  return Number(BigInt.asIntN(32, b ^ (b >> 32n)));
}

/** hppc's BitMixer.mix32: murmur3's 32-bit finalizer (fmix32). */
export function mix32(k: number): number {
  k = Math.imul(k ^ (k >>> 16), 0x85ebca6b);
  k = Math.imul(k ^ (k >>> 13), 0xc2b2ae35);
  return (k ^ (k >>> 16)) | 0;
}
