/**
 * Applying a synonym map (synonym-map.ts) to a token stream, the two ways Lucene does:
 *
 * - `synonym_graph` (SynonymGraphFilter): at each position the longest matching rule wins; its
 *   outputs are side paths of a graph from the match's start node to a shared end node, emitted
 *   first tokens first (outputs in rule order, then the original when kept), then the rest of
 *   each path. Position increments and lengths are node differences, so "dns" over "domain name
 *   system" spans 3 positions. Synonyms take the whole match's offsets and the type "SYNONYM".
 * - `synonym` (the older SynonymFilter): outputs are stacked over the matched input positions —
 *   a one-word output at the match start spanning the match, word k of a longer output at the
 *   k-th position — each after the original token there (when kept).
 */
import { WORD_SEPARATOR, type SynonymMap, type SynonymOutputs } from './synonym-map.js';
import type { StreamFilter, Token } from './token-graph.js';

export const SYNONYM_TYPE = 'SYNONYM';

interface Match {
  readonly length: number;
  readonly outputs: SynonymOutputs;
}

/** The longest rule matching the tokens from `from` (stacked tokens never start or continue one). */
function longestMatch(map: SynonymMap, tokens: readonly Token[], from: number, ignoreCase: boolean): Match | null {
  let key = '';
  let best: Match | null = null;
  for (let i = from; i < tokens.length && i - from < map.maxInputLength; i++) {
    if (i > from && tokens[i].posInc !== 1) break;
    const term = ignoreCase ? tokens[i].term.toLowerCase() : tokens[i].term;
    key = i === from ? term : key + WORD_SEPARATOR + term;
    const outputs = map.rules.get(key);
    if (outputs) best = { length: i - from + 1, outputs };
    if (!map.prefixes.has(key)) break;
  }
  return best;
}

export function synonymGraphFilter(map: SynonymMap, ignoreCase: boolean): StreamFilter {
  return (stream) => {
    const input = stream.tokens;
    const out: Token[] = [];
    let lastNodeOut = -1;
    let nextNodeOut = 0;
    let i = 0;
    while (i < input.length) {
      const match = longestMatch(map, input, i, ignoreCase);
      if (match === null) {
        const t = input[i++];
        out.push(t);
        lastNodeOut += t.posInc;
        nextNodeOut = lastNodeOut + t.posLen;
        continue;
      }
      const matched = input.slice(i, i + match.length);
      i += match.length;
      const keepOrig = match.outputs.keepOrig;
      const paths = match.outputs.outputs;
      let totalPathNodes = keepOrig ? matched.length - 1 : 0;
      for (const p of paths) totalPathNodes += p.length - 1;
      const startNode = nextNodeOut;
      const endNode = startNode + totalPathNodes + 1;
      const start = matched[0].start;
      const end = matched[matched.length - 1].end;
      const buffered: Array<{ t: Token | null; term: string; from: number; to: number }> = [];
      let newNodeCount = 0;
      for (const p of paths) {
        let pathEnd: number;
        if (p.length === 1) {
          pathEnd = endNode;
        } else {
          pathEnd = nextNodeOut + newNodeCount + 1;
          newNodeCount += p.length - 1;
        }
        buffered.push({ t: null, term: p[0], from: startNode, to: pathEnd });
      }
      if (keepOrig) {
        const inputEnd = matched.length === 1 ? endNode : nextNodeOut + newNodeCount + 1;
        buffered.push({ t: matched[0], term: matched[0].term, from: startNode, to: inputEnd });
      }
      nextNodeOut = endNode;
      paths.forEach((p, pathId) => {
        if (p.length === 1) return;
        let lastNode = buffered[pathId].to;
        for (let k = 1; k < p.length - 1; k++, lastNode++) buffered.push({ t: null, term: p[k], from: lastNode, to: lastNode + 1 });
        buffered.push({ t: null, term: p[p.length - 1], from: lastNode, to: endNode });
      });
      if (keepOrig && matched.length > 1) {
        let lastNode = buffered[paths.length].to;
        for (let k = 1; k < matched.length - 1; k++, lastNode++) buffered.push({ t: matched[k], term: matched[k].term, from: lastNode, to: lastNode + 1 });
        const last = matched[matched.length - 1];
        buffered.push({ t: last, term: last.term, from: lastNode, to: endNode });
      }
      for (const b of buffered) {
        const base: Token = b.t ?? { term: b.term, start, end, type: SYNONYM_TYPE, posInc: 0, posLen: 1, keyword: false };
        out.push({ ...base, posInc: b.from - lastNodeOut, posLen: b.to - b.from });
        lastNodeOut = b.from;
      }
    }
    return { tokens: out, finalIncrement: stream.finalIncrement };
  };
}

export function synonymFilter(map: SynonymMap, ignoreCase: boolean): StreamFilter {
  return (stream) => {
    const input = stream.tokens;
    // Per input token: what is stacked after it; outputs running past the last token go to `extra`.
    const stacked: Token[][] = input.map(() => []);
    const dropped = new Array<boolean>(input.length).fill(false);
    const extra: Token[][] = [];
    let i = 0;
    while (i < input.length) {
      const match = longestMatch(map, input, i, ignoreCase);
      if (match === null) {
        i++;
        continue;
      }
      const n = match.length;
      const last = input[i + n - 1];
      for (const output of match.outputs.outputs) {
        output.forEach((word, k) => {
          const at = i + k;
          const over = at < i + n ? input[at] : last;
          const single = output.length === 1;
          const t: Token = {
            term: word, start: over.start, end: single ? last.end : over.end, type: SYNONYM_TYPE, posInc: 0,
            posLen: single && match.outputs.keepOrig ? n : 1, keyword: false,
          };
          if (at < input.length) stacked[at].push(t);
          else (extra[at - input.length] ??= []).push(t);
        });
      }
      if (!match.outputs.keepOrig) for (let k = i; k < i + n; k++) dropped[k] = true;
      i += n;
    }
    const out: Token[] = [];
    let carry = 0;
    input.forEach((t, k) => {
      let inc = t.posInc + carry;
      carry = 0;
      if (!dropped[k]) {
        out.push(inc === t.posInc ? t : { ...t, posInc: inc });
        inc = 0;
      }
      if (stacked[k].length === 0 && dropped[k]) {
        carry = inc;
        return;
      }
      for (const s of stacked[k]) {
        out.push({ ...s, posInc: inc });
        inc = 0;
      }
    });
    for (let k = 0; k < extra.length; k++) {
      const tokens = extra[k] ?? [];
      let inc = 1 + carry;
      carry = tokens.length === 0 ? inc : 0;
      for (const s of tokens) {
        out.push({ ...s, posInc: inc });
        inc = 0;
      }
    }
    return { tokens: out, finalIncrement: stream.finalIncrement + carry };
  };
}
