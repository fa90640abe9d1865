/**
 * The commands' client turns a URL a user mistyped into one line naming the flag it came from,
 * the value as given (never a password) and, for a URL without a scheme, what was meant.
 */
import { describe, expect, it } from 'vitest';
import { CliError, EXIT } from '../../src/cli/cli-error.js';
import { EsClient } from '../../src/cli/es-client.js';

function failure(url: string, urlFlag?: string): CliError {
  try {
    new EsClient({ url, urlFlag });
  } catch (e) {
    return e as CliError;
  }
  throw new Error(`no error for [${url}]`);
}

describe('EsClient URL', () => {
  it('a URL without a scheme is refused with the whole value and the http:// it lacks', () => {
    const e = failure('localhost:9200');
    expect(e).toBeInstanceOf(CliError);
    expect(e.exitCode).toBe(EXIT.usage);
    expect(e.message).toBe('--url must be an http(s) URL such as http://127.0.0.1:9200, got [localhost:9200] (did you mean http://localhost:9200?)');
    expect(failure('127.0.0.1:9200').message).toContain('got [127.0.0.1:9200] (did you mean http://127.0.0.1:9200?)');
  });

  it('names the flag the URL came from (export: --from, --to)', () => {
    expect(failure('ftp://es.example.com', '--to').message).toBe('--to must be an http(s) URL such as http://127.0.0.1:9200, got [ftp://es.example.com]');
    expect(failure('not a url', '--from').message).toBe('--from must be an http(s) URL such as http://127.0.0.1:9200, got [not a url]');
  });

  it('never echoes credentials, with or without a scheme', () => {
    expect(failure('ftp://elastic:s3cret@es.example.com').message).not.toContain('s3cret');
    expect(failure('elastic:s3cret@es.example.com:9200').message).not.toContain('s3cret');
  });

  it('http and https URLs are accepted, the trailing slash dropped', () => {
    expect(new EsClient({ url: 'http://127.0.0.1:9200/' }).url).toBe('http://127.0.0.1:9200');
    expect(new EsClient({ url: 'https://es.example.com/prefix/' }).url).toBe('https://es.example.com/prefix');
  });
});
