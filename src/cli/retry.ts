/**
 * Back-off for the commands that write or read in bulk (load, export): exponential from 100 ms up
 * to 10 s with jitter, as the ES clients' bulk helpers do, so many clients retrying a busy server
 * do not come back in lockstep.
 */
import type { EsClient, EsResponse } from './es-client.js';

/** Back-off before retry `attempt` (0-based), in ms. */
export function defaultBackoff(attempt: number): number {
  const base = Math.min(10_000, 100 * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Statuses a request is sent again for: overload (429) and the server-side failures that pass (5xx). */
export const TRANSIENT_STATUSES: readonly number[] = [429, 500, 502, 503, 504];

export interface RetryOptions {
  maxRetries: number;
  backoffMs?: (attempt: number) => number;
  /** Statuses retried (default TRANSIENT_STATUSES); the last answer is thrown as the client throws it. */
  retryStatuses?: readonly number[];
}

/**
 * One request that is idempotent (a search page, a PIT open, a count), sent again after a
 * transient status; other answers behave as EsClient.request's.
 */
export async function requestWithRetry<T = any>(client: EsClient, method: string, path: string, body: unknown, options: RetryOptions & { allow?: readonly number[] }): Promise<EsResponse<T>> {
  const retry = options.retryStatuses ?? TRANSIENT_STATUSES;
  const backoff = options.backoffMs ?? defaultBackoff;
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= options.maxRetries;
    const res = await client.request<T>(method, path, body, { allow: [...(options.allow ?? []), ...(last ? [] : retry)] });
    if (last || !retry.includes(res.status) || options.allow?.includes(res.status)) return res;
    await sleep(backoff(attempt));
  }
}
