/**
 * What `npm run demo:load` and `npm run demo` share as commands: their --help, the server URL
 * and key from the flags or the environment the `threadsearch` CLI reads (THREADSEARCH_URL,
 * THREADSEARCH_API_KEY), and a request helper whose failures say what to do — an unreachable
 * server, a refused key, or ES's error `type: reason` — instead of a bare "fetch failed" or a
 * whole error body.
 */

export const DEFAULT_ES = 'http://127.0.0.1:9200';

/** The server URL: --es, else THREADSEARCH_URL, else the default. */
export function esUrl(flag: string | undefined): string {
  return (flag ?? (process.env.THREADSEARCH_URL || DEFAULT_ES)).replace(/\/+$/, '');
}

export class DemoError extends Error {}

export type Call = (method: string, path: string, body?: unknown, allow?: (status: number, body: any) => boolean) => Promise<any>;

/** JSON (NDJSON for /_bulk) requests to `es` with the key; a failure is a DemoError with one line. */
export function adminClient(es: string, apiKey: string | undefined): Call {
  const base = es.replace(/\/+$/, '');
  return async (method, path, body, allow = () => false) => {
    const headers: Record<string, string> = { 'content-type': path.startsWith('/_bulk') ? 'application/x-ndjson' : 'application/json' };
    if (apiKey) headers.authorization = `ApiKey ${apiKey}`;
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new DemoError(`cannot reach ${base}: ${cause?.code ?? cause?.message ?? (e as Error).message} (is the server running? pass its URL with --es or THREADSEARCH_URL)`);
    }
    const text = await res.text();
    let parsed: any;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = text;
    }
    if (res.ok || allow(res.status, parsed)) return parsed;
    const reason = errorText(parsed);
    if (res.status === 401) {
      throw new DemoError(`${base} refused the credentials (401 ${reason}): pass --api-key or set THREADSEARCH_API_KEY to the key the server printed at its first start`);
    }
    if (res.status === 403) throw new DemoError(`${method} ${path}: the API key lacks the privilege (403 ${reason})`);
    throw new DemoError(`${method} ${path} answered ${res.status} ${reason}`);
  };
}

/** ES's `type: reason`, or the start of whatever else came back. */
function errorText(body: unknown): string {
  const err = (body as { error?: { type?: string; reason?: string } } | null)?.error;
  if (err && typeof err === 'object') return `${err.type ?? 'error'}: ${String(err.reason ?? '').slice(0, 300)}`;
  return String(typeof body === 'string' ? body : JSON.stringify(body)).slice(0, 200);
}

/** Runs a command's main: a DemoError or a bad flag is one line on stderr and exit code 1 (2 for flags). */
export function runMain(name: string, main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    const badFlag = (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true;
    console.error(`${name} failed: ${err instanceof Error ? err.message : String(err)}${badFlag ? ' (--help lists the options)' : ''}`);
    process.exit(badFlag ? 2 : 1);
  });
}
