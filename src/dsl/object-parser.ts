/**
 * ES ObjectParser's error shape, for the parsers built like ES's (highlight, suggest, rank_feature):
 * a value that fails inside a declared field becomes `[<parser>] failed to parse field [<field>]`
 * (x_content_parse_exception) with the failure as its cause — nested parsers nest the same way —
 * and unknown members are `[<parser>] unknown field [<name>]` (+ ES's did-you-mean).
 */
import { didYouMean } from '../common/did-you-mean.js';
import { EsError, XContentParseError } from '../errors/index.js';

export function objectField<T>(parser: string, field: string, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (!(e instanceof EsError)) throw e;
    throw new XContentParseError(`[${parser}] failed to parse field [${field}]`, e);
  }
}

export function unknownField(parser: string, name: string, known: readonly string[]): XContentParseError {
  return new XContentParseError(`[${parser}] unknown field [${name}]${didYouMean(name, known)}`, undefined, 'key');
}
