/**
 * Index name rules (ES MetadataCreateIndexService.validateIndexOrAliasName + lowercase check), in
 * ES's order and wording (es-api.md §1.1).
 */
import { InvalidIndexNameError } from '../errors/index.js';

const INVALID_CHARS = ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ','];

export function validateIndexName(name: string): void {
  if (INVALID_CHARS.some((c) => name.includes(c))) {
    throw new InvalidIndexNameError(name, 'must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?]');
  }
  if (name.includes('#')) throw new InvalidIndexNameError(name, "must not contain '#'");
  if (name.includes(':')) throw new InvalidIndexNameError(name, "must not contain ':'");
  if (name.startsWith('_') || name.startsWith('-') || name.startsWith('+')) {
    throw new InvalidIndexNameError(name, "must not start with '_', '-', or '+'");
  }
  const bytes = new TextEncoder().encode(name).length;
  if (bytes > 255) throw new InvalidIndexNameError(name, `index name is too long, (${bytes} > 255)`);
  if (name === '.' || name === '..') throw new InvalidIndexNameError(name, "must not be '.' or '..'");
  if (name.length === 0) throw new InvalidIndexNameError(name, 'must not be empty');
  if (name.toLowerCase() !== name) throw new InvalidIndexNameError(name, 'must be lowercase');
}
