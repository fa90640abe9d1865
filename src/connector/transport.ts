/**
 * One JSON POST through the global `fetch` (browsers, Node ≥ 20). Unlike Elastic's connector,
 * which reads `.json()` whatever came back, a failure surfaces as a `ConnectorError` that says
 * what happened: the URL that could not be reached, or the HTTP status with ES's error type and
 * reason, so Search UI's "An unexpected error occurred: …" shows something useful.
 */

/** What a request to the server (or the demo proxy) failed with. */
export class ConnectorError extends Error {
  override name = 'ConnectorError';
  constructor(
    message: string,
    /** The URL that was requested. */
    readonly url: string,
    /** The HTTP status, or 0 when no answer came (network failure). */
    readonly status: number,
    /** ES's `error.type` (e.g. `security_exception`), when the answer had one. */
    readonly type?: string,
    /** ES's `error.reason`, when the answer had one. */
    readonly reason?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Longest part of a server's text quoted in an error message. */
const QUOTE_LIMIT = 300;

export async function postJson<T>(url: string, body: unknown, headers: Record<string, string>): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  } catch (err) {
    throw new ConnectorError(`POST ${url} failed: ${describe(err)}`, url, 0, undefined, undefined, { cause: err });
  }
  const text = await response.text().catch(() => '');
  const parsed = parseJson(text);
  if (!response.ok) throw httpError(url, response.status, text, parsed);
  if (parsed === undefined || parsed === null || typeof parsed !== 'object') {
    throw new ConnectorError(`POST ${url} answered ${response.status} with a body that is not a JSON object: ${quote(text)}`, url, response.status);
  }
  return parsed as T;
}

function httpError(url: string, status: number, text: string, parsed: unknown): ConnectorError {
  const error = (parsed as { error?: unknown } | undefined)?.error;
  if (error !== null && typeof error === 'object') {
    const { type, reason } = error as { type?: unknown; reason?: unknown };
    const t = typeof type === 'string' ? type : undefined;
    const r = typeof reason === 'string' ? reason : undefined;
    const rootCause = (error as { root_cause?: Array<{ type?: unknown; reason?: unknown }> }).root_cause?.[0];
    // A search_phase_execution_exception says only "all shards failed": the root cause says why.
    const detail =
      t === 'search_phase_execution_exception' && typeof rootCause?.reason === 'string'
        ? `${t}: ${quote(r ?? '')} (${String(rootCause.type)}: ${quote(rootCause.reason)})`
        : `${t ?? 'error'}: ${quote(r ?? '')}`;
    return new ConnectorError(`POST ${url} answered ${status} ${detail}`, url, status, t, r);
  }
  if (typeof error === 'string') return new ConnectorError(`POST ${url} answered ${status}: ${quote(error)}`, url, status, undefined, error);
  return new ConnectorError(`POST ${url} answered ${status}${text ? `: ${quote(text)}` : ''}`, url, status);
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function quote(text: string): string {
  return text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text;
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    // Node's fetch says only "fetch failed"; its cause has the reason (ECONNREFUSED, …).
    return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
  }
  return String(err);
}
