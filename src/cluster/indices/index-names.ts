/**
 * Index and alias name rules (ES MetadataCreateIndexService.validateIndexOrAliasName, plus the
 * lowercase check for indices only), in ES's order and wording (es-api.md §1.1).
 */
import { InvalidIndexNameError, type EsError } from '../../errors/index.js';

const INVALID_CHARS = ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ','];

/** The rules indices and aliases share; `fail` builds the caller's error from the broken rule. */
export function validateIndexOrAliasName(name: string, fail: (rule: string) => EsError): void {
  if (INVALID_CHARS.some((c) => name.includes(c))) {
    throw fail('must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?]');
  }
  if (name.includes('#')) throw fail("must not contain '#'");
  if (name.includes(':')) throw fail("must not contain ':'");
  if (name.startsWith('_') || name.startsWith('-') || name.startsWith('+')) {
    throw fail("must not start with '_', '-', or '+'");
  }
  const bytes = new TextEncoder().encode(name).length;
  if (bytes > 255) throw fail(`index name is too long, (${bytes} > 255)`);
  if (name === '.' || name === '..') throw fail("must not be '.' or '..'");
}

export function validateIndexName(name: string): void {
  validateIndexOrAliasName(name, (rule) => new InvalidIndexNameError(name, rule));
  if (name.length === 0) throw new InvalidIndexNameError(name, 'must not be empty');
  if (name.toLowerCase() !== name) throw new InvalidIndexNameError(name, 'must be lowercase');
}
