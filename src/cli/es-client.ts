/**
 * The commands' HTTP client for a threadsearch (or Elasticsearch) URL: JSON and NDJSON requests
 * with the API key, and the three failures a user can fix turned into one-line messages — an
 * unreachable URL, refused credentials, an ES error answer (its `type` and `reason`).
 */
import { CliError, EXIT } from './cli-error.js';

export interface ConnectionOptions {
  url: string;
  /** The encoded API key (base64 of id:secret) sent as `Authorization: ApiKey …`; none when absent. */
  apiKey?: string;
  /** `user:password` sent as `Authorization: Basic …` (Elasticsearch's built-in users); the API key wins when both are given. */
  basicAuth?: string;
  /** What to tell the user when the credentials are refused (default: the --api-key flag). */
  credentialsHint?: string;
  /** The flag the URL came from, named in a bad URL's message (default: --url). */
  urlFlag?: string;
}

export interface EsResponse<T = any> {
  status: number;
  body: T;
}

export interface RequestOptions {
  ndjson?: boolean;
  /** Statuses returned to the caller instead of thrown (e.g. 404 for "does it exist", 429 to retry). */
  allow?: readonly number[];
}

export class EsClient {
  readonly url: string;
  private readonly headers: Record<string, string>;
  private readonly credentialsHint: string;

  constructor(options: ConnectionOptions) {
    const { url, userInfo } = parseUrl(options.url, options.urlFlag ?? '--url');
    this.url = url;
    // Credentials in the URL (http://user:pass@host) are what curl and the ES clients accept too.
    const basic = options.basicAuth ?? userInfo;
    this.headers = options.apiKey ? { authorization: `ApiKey ${options.apiKey}` }
      : basic ? { authorization: `Basic ${Buffer.from(basic).toString('base64')}` } : {};
    this.credentialsHint = options.credentialsHint ?? 'pass a valid --api-key (or THREADSEARCH_API_KEY)';
  }

  async request<T = any>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<EsResponse<T>> {
    let res: Response;
    try {
      res = await fetch(`${this.url}${path}`, {
        method,
        headers: { ...this.headers, ...(body === undefined ? {} : { 'content-type': options.ndjson ? 'application/x-ndjson' : 'application/json' }) },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
    } catch (e) {
      throw new CliError(`cannot reach ${this.url}: ${networkReason(e)}`);
    }
    const text = await res.text();
    let json: any = text;
    try {
      json = text.length > 0 ? JSON.parse(text) : null;
    } catch {
      // a text answer (a _cat API, or something that is not Elasticsearch) stays a string
    }
    if (res.status >= 200 && res.status < 300) return { status: res.status, body: json as T };
    if (options.allow?.includes(res.status)) return { status: res.status, body: json as T };
    if (res.status === 401) {
      throw new CliError(`${this.url} refused the credentials (401 ${errorText(json)}); ${this.credentialsHint}`);
    }
    if (res.status === 403) throw new CliError(`${method} ${path}: the API key lacks the privilege (403 ${errorText(json)})`);
    throw new CliError(`${method} ${path} failed: ${res.status} ${errorText(json)}`);
  }

  /** GET / — proves the URL answers as Elasticsearch and the key is accepted; returns the version. */
  async info(): Promise<{ name: string; version: string; distribution: string | undefined }> {
    const { body } = await this.request<any>('GET', '/');
    if (body === null || typeof body !== 'object' || typeof body.version?.number !== 'string') {
      throw new CliError(`${this.url} does not answer like Elasticsearch (GET / has no version.number)`);
    }
    return { name: String(body.name ?? ''), version: body.version.number, distribution: typeof body.version.distribution === 'string' ? body.version.distribution : undefined };
  }
}

function parseUrl(raw: string, flag: string): { url: string; userInfo: string | undefined } {
  // Never echo a password: whatever precedes an @ (with or without a scheme) is elided.
  const shown = raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^@/]*@/i, '$1…@').slice(0, 60);
  const bad = () => {
    // `localhost:9200` parses as a URL of scheme "localhost:"; say what was meant.
    const hint = /^[a-z0-9.-]+(:\d+)?(\/\S*)?$/i.test(raw) ? ` (did you mean http://${shown}?)` : '';
    return new CliError(`${flag} must be an http(s) URL such as http://127.0.0.1:9200, got [${shown}]${hint}`, EXIT.usage);
  };
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw bad();
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw bad();
  const userInfo = u.username === '' ? undefined : `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
  return { url: u.origin + u.pathname.replace(/\/+$/, ''), userInfo };
}

function networkReason(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (e as Error).message;
}

/** `type: reason` of an ES error body, or a short prefix of whatever came back. */
export function errorText(body: unknown): string {
  const err = (body as { error?: { type?: string; reason?: string } } | null)?.error;
  if (err && typeof err === 'object') return `${err.type ?? 'error'}: ${String(err.reason ?? '').slice(0, 300)}`;
  return String(typeof body === 'string' ? body : JSON.stringify(body)).slice(0, 200);
}
