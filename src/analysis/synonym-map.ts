/**
 * Synonym rules → a synonym map (Lucene SynonymMap with its Solr and WordNet parsers, as ES's
 * `synonym` and `synonym_graph` filters build it from inline `synonyms`).
 *
 * Each side of a rule is analysed with the analysis chain that precedes the filter (the tokenizer
 * and earlier filters), so "Quick Fox" in a rule matches the tokens the text produces. Equivalent
 * lists (`a, b, c`) map every entry to every other and keep the original when `expand` is true,
 * or map all to the first without keeping the original when false; explicit rules (`a => b`)
 * replace. Outputs for one input accumulate in rule order, duplicates dropped (dedup).
 */

/** Thrown for a rule that cannot be parsed or analysed (ES: "failed to build synonyms"). */
export class SynonymRuleError extends Error {}

export interface SynonymOutputs {
  /** Each output as its analysed terms. */
  readonly outputs: string[][];
  keepOrig: boolean;
}

export interface SynonymMap {
  /** Input terms joined with U+0000 → outputs. */
  readonly rules: ReadonlyMap<string, SynonymOutputs>;
  /** Joined term prefixes of multi-term inputs (a match may continue past them). */
  readonly prefixes: ReadonlySet<string>;
  readonly maxInputLength: number;
}

export const WORD_SEPARATOR = '\u0000';

/** Analyses one side of a rule into its terms; throws SynonymRuleError when it cannot. */
export type RuleAnalyzer = (text: string) => string[];

class Builder {
  readonly rules = new Map<string, SynonymOutputs>();
  readonly prefixes = new Set<string>();
  maxInputLength = 0;

  add(input: string[], output: string[], includeOrig: boolean): void {
    const key = input.join(WORD_SEPARATOR);
    let entry = this.rules.get(key);
    if (!entry) {
      this.rules.set(key, (entry = { outputs: [], keepOrig: false }));
      for (let i = 1; i < input.length; i++) this.prefixes.add(input.slice(0, i).join(WORD_SEPARATOR));
      this.maxInputLength = Math.max(this.maxInputLength, input.length);
    }
    const joined = output.join(WORD_SEPARATOR);
    if (!entry.outputs.some((o) => o.join(WORD_SEPARATOR) === joined)) entry.outputs.push(output);
    entry.keepOrig ||= includeOrig;
  }

  build(): SynonymMap {
    return { rules: this.rules, prefixes: this.prefixes, maxInputLength: this.maxInputLength };
  }
}

/** Splits on unescaped `separator`, unescaping `\x` (Solr's SolrSynonymParser.split). */
function splitEscaped(s: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let i = 0;
  while (i < s.length) {
    if (s.startsWith(separator, i)) {
      parts.push(current);
      current = '';
      i += separator.length;
      continue;
    }
    const ch = s[i];
    if (ch === '\\') {
      current += ch;
      if (i + 1 < s.length) current += s[i + 1];
      i += 2;
      continue;
    }
    current += ch;
    i++;
  }
  parts.push(current);
  return parts;
}

function unescape(s: string): string {
  return s.includes('\\') ? s.replace(/\\(.)/g, '$1') : s;
}

function analyzeSide(analyze: RuleAnalyzer, raw: string): string[] {
  const terms = analyze(unescape(raw.trim()));
  if (terms.length === 0) throw new SynonymRuleError(`term: ${raw.trim().slice(0, 100)} was completely eliminated by analyzer`);
  return terms;
}

/** Lucene SolrSynonymParser. `lenient` skips rules that fail instead of throwing. */
export function parseSolrSynonyms(lines: readonly string[], expand: boolean, lenient: boolean, analyze: RuleAnalyzer): SynonymMap {
  const b = new Builder();
  lines.forEach((rawLine, lineIndex) => {
    const line = rawLine.trim();
    if (line.length === 0 || line.startsWith('#')) return;
    try {
      const sides = splitEscaped(line, '=>');
      if (sides.length > 2) throw new SynonymRuleError('more than one explicit mapping specified on the same line');
      if (sides.length === 2) {
        const inputs = splitEscaped(sides[0], ',').map((s) => analyzeSide(analyze, s));
        const outputs = splitEscaped(sides[1], ',').map((s) => analyzeSide(analyze, s));
        for (const input of inputs) for (const output of outputs) b.add(input, output, false);
      } else {
        const inputs = splitEscaped(line, ',').map((s) => analyzeSide(analyze, s));
        if (expand) {
          for (let i = 0; i < inputs.length; i++) for (let j = 0; j < inputs.length; j++) if (i !== j) b.add(inputs[i], inputs[j], true);
        } else {
          for (const input of inputs) b.add(input, inputs[0], false);
        }
      }
    } catch (e) {
      if (!(e instanceof SynonymRuleError)) throw e;
      if (!lenient) throw new SynonymRuleError(`Invalid synonym rule at line ${lineIndex + 1}: ${e.message}`);
    }
  });
  return b.build();
}

const RE_WORDNET = /^s\((\d+),\d+,'(.*)',\w,\d+,\d+\)\.$/;

/** Lucene WordnetSynonymParser: `s(synset,w_num,'word',type,sense,tag).` lines grouped by synset. */
export function parseWordnetSynonyms(lines: readonly string[], expand: boolean, lenient: boolean, analyze: RuleAnalyzer): SynonymMap {
  const b = new Builder();
  let synset: string[][] = [];
  let lastId: string | null = null;
  const flush = () => {
    if (synset.length > 1) {
      if (expand) {
        for (let i = 0; i < synset.length; i++) for (let j = 0; j < synset.length; j++) if (i !== j) b.add(synset[i], synset[j], true);
      } else {
        for (const input of synset) b.add(input, synset[0], false);
      }
    }
    synset = [];
  };
  lines.forEach((rawLine, lineIndex) => {
    const line = rawLine.trim();
    if (line.length === 0) return;
    const m = RE_WORDNET.exec(line);
    try {
      if (!m) throw new SynonymRuleError('Invalid synonym rule');
      if (m[1] !== lastId) flush();
      lastId = m[1];
      synset.push(analyzeSide(analyze, m[2].replaceAll("''", "'")));
    } catch (e) {
      if (!(e instanceof SynonymRuleError)) throw e;
      if (!lenient) throw new SynonymRuleError(`Invalid synonym rule at line ${lineIndex + 1}: ${e.message}`);
    }
  });
  flush();
  return b.build();
}
