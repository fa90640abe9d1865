/**
 * The top-level domains UAX29URLEmailTokenizer accepts at the end of a scheme-less host or an e-mail
 * domain, as the JFlex macros Lucene generates from IANA's root zone (GenerateJflexTLDMacros):
 * every TLD in its ASCII form (internationalised ones as `xn--` punycode), lower case.
 *
 * The list comes from the `tlds` npm package (IANA's list, kept current by its maintainers) at
 * first use; nothing is downloaded. Lucene's tokenizer carries the list of its release, so a TLD
 * delegated or retired since differs between the two.
 */
import tlds from 'tlds' with { type: 'json' };
import punycode from 'punycode/punycode.js';

let asciiTlds: readonly string[] | null = null;

/** All TLDs, ASCII, lower case; converted on first use (only the uax_url_email grammar needs them). */
export function allAsciiTlds(): readonly string[] {
  return (asciiTlds ??= [...new Set((tlds as string[]).map((t) => punycode.toASCII(t).toLowerCase()))]);
}

/**
 * The TLDs of Lucene's grammar, in its three macros: GenerateJflexTLDMacros sorts the TLDs longest
 * first and puts each in bucket 0 (ASCIITLD) unless it is a prefix of a longer one, shorter by
 * exactly one character per bucket along an unbroken chain of TLD prefixes (`co` ← `com`: bucket 1,
 * ASCIITLDprefix_1CharSuffix). The grammar uses buckets 0, 1 and 2 only.
 */
export function grammarTldBuckets(all: readonly string[]): [string[], string[], string[]] {
  const processed = new Map<string, boolean>(all.map((t) => [t, false]));
  const longestFirst = [...all].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
  const buckets: string[][] = [[]];
  for (const tld of longestFirst) {
    if (processed.get(tld) === true) continue;
    buckets[0].push(tld);
    for (let suffix = 1; tld.length - suffix >= 2; suffix++) {
      const prefix = tld.slice(0, tld.length - suffix);
      if (!processed.has(prefix) || processed.get(prefix) === true) break;
      processed.set(prefix, true);
      (buckets[suffix] ??= []).push(prefix);
    }
  }
  return [buckets[0], buckets[1] ?? [], buckets[2] ?? []];
}
